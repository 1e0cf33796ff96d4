#include "core/run/drive/chat_request_body.h"

#include <nlohmann/json.hpp>

#include "core/net/steady_clock.h"
#include "core/run/drive/media_encoding.h"

namespace lb::run {
namespace {

nlohmann::json chat_body(nlohmann::json msgs, const ChatRequestOptions& options) {
  nlohmann::json body;
  body["model"] = options.model;
  body["messages"] = std::move(msgs);
  body["max_tokens"] = options.max_tokens;
  body["temperature"] = options.temperature;
  if (options.top_p >= 0) body["top_p"] = options.top_p;
  if (options.seed >= 0) body["seed"] = options.seed;
  body["stream"] = true;
  nlohmann::json stream_options = {{"include_usage", true}};
  if (accepts_continuous_usage(options.server)) stream_options["continuous_usage_stats"] = true;
  body["stream_options"] = std::move(stream_options);
  if (options.ignore_eos) body["ignore_eos"] = true;
  if (options.top_logprobs > 0) {
    body["logprobs"] = true;
    body["top_logprobs"] = options.top_logprobs;
    if (options.server == ServerKind::Vllm || options.server == ServerKind::LanebenchSim)
      body["return_tokens_as_token_ids"] = true;
  }
  return body;
}

std::shared_ptr<const std::string> dumped(const nlohmann::json& body) {
  return std::make_shared<const std::string>(
      body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

nlohmann::json media_part(const plan::MediaRef& item, std::string url) {
  const char* type = item.kind == plan::MediaKind::Video ? "video_url" : "image_url";
  return {{"type", type}, {type, {{"url", std::move(url)}}}};
}

size_t last_user_message(const std::vector<plan::ChatMessage>& messages) {
  for (size_t i = messages.size(); i > 0; --i)
    if (messages[i - 1].role == "user") return i - 1;
  return messages.size();
}

}  // namespace

bool accepts_continuous_usage(ServerKind server) {
  return server == ServerKind::Vllm || server == ServerKind::Sglang ||
         server == ServerKind::LanebenchSim;
}

bool accepts_seed(ServerKind server) { return server != ServerKind::Unknown; }

std::shared_ptr<const std::string> chat_request_body(const std::vector<plan::ChatMessage>& messages,
                                                     const ChatRequestOptions& options) {
  nlohmann::json msgs = nlohmann::json::array();
  for (const auto& m : messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
  return dumped(chat_body(std::move(msgs), options));
}

RequestBody prompt_request_body(const plan::PromptSpec& prompt, const ChatRequestOptions& options) {
  const std::vector<plan::ChatMessage> messages = prompt.chat();
  if (prompt.media.empty()) return {chat_request_body(messages, options), {}, ""};
  const int64_t start_ns = steady_now_ns();
  EncodedMedia media = encode_media(prompt.media, MediaWire::DataUrl, options.max_media_bytes);
  RequestBody out{nullptr, std::move(media.record), std::move(media.refused)};
  if (!out.refused.empty()) return out;
  const size_t with_media = last_user_message(messages);
  if (with_media == messages.size()) {
    out.refused = "prompt " + prompt.id + " has media but no user message to carry them";
    return out;
  }
  nlohmann::json msgs = nlohmann::json::array();
  for (size_t i = 0; i < messages.size(); ++i) {
    if (i != with_media) {
      msgs.push_back({{"role", messages[i].role}, {"content", messages[i].content}});
      continue;
    }
    nlohmann::json parts = nlohmann::json::array();
    for (size_t k = 0; k < prompt.media.size(); ++k)
      parts.push_back(media_part(prompt.media[k], std::move(media.payloads[k])));
    parts.push_back({{"type", "text"}, {"text", messages[i].content}});
    msgs.push_back({{"role", "user"}, {"content", std::move(parts)}});
  }
  out.body = dumped(chat_body(std::move(msgs), options));
  out.media.encode_ns = steady_now_ns() - start_ns;
  return out;
}

std::shared_ptr<const std::string> chat_request_body(const std::string& user_prompt,
                                                     const ChatRequestOptions& options) {
  return chat_request_body(std::vector<plan::ChatMessage>{{"user", user_prompt}}, options);
}

}  // namespace lb::run
