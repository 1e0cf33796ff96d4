#include "core/run/drive/media_request_bodies.h"

#include <nlohmann/json.hpp>

#include "core/net/steady_clock.h"
#include "core/run/drive/media_encoding.h"

namespace lb::run {
namespace {

using nlohmann::json;

size_t last_user(const std::vector<plan::ChatMessage>& messages) {
  for (size_t i = messages.size(); i > 0; --i)
    if (messages[i - 1].role == "user") return i - 1;
  return messages.size();
}

std::shared_ptr<const std::string> dump_body(const json& body) {
  return std::make_shared<const std::string>(
      body.dump(-1, ' ', false, json::error_handler_t::replace));
}

// Encodes the media and calls `build(messages, payloads, with_media)` for the body's JSON.
template <typename Build>
RequestBody build_body(const plan::PromptSpec& prompt, const ChatRequestOptions& options,
                       MediaWire wire, Build build) {
  const int64_t start_ns = steady_now_ns();
  const std::vector<plan::ChatMessage> messages = prompt.chat();
  EncodedMedia media = encode_media(prompt.media, wire, options.max_media_bytes);
  RequestBody out{nullptr, std::move(media.record), std::move(media.refused)};
  const size_t with_media = prompt.media.empty() ? messages.size() : last_user(messages);
  if (out.refused.empty() && !prompt.media.empty() && with_media == messages.size())
    out.refused = "prompt " + prompt.id + " has media but no user message to carry them";
  if (!out.refused.empty()) return out;
  out.body = dump_body(build(messages, std::move(media.payloads), with_media));
  if (!prompt.media.empty()) out.media.encode_ns = steady_now_ns() - start_ns;
  return out;
}

}  // namespace

RequestBody responses_request_body(const plan::PromptSpec& prompt,
                                   const ChatRequestOptions& options) {
  return build_body(
      prompt, options, MediaWire::ImagesOnly,
      [&](const std::vector<plan::ChatMessage>& messages, std::vector<std::string> payloads,
          size_t with_media) {
        json input = json::array();
        for (size_t i = 0; i < messages.size(); ++i) {
          if (i != with_media) {
            input.push_back({{"role", messages[i].role}, {"content", messages[i].content}});
            continue;
          }
          json parts = json::array();
          for (auto& url : payloads)
            parts.push_back({{"type", "input_image"}, {"image_url", std::move(url)}});
          parts.push_back({{"type", "input_text"}, {"text", messages[i].content}});
          input.push_back({{"role", "user"}, {"content", std::move(parts)}});
        }
        json body = {{"model", options.model},
                     {"input", std::move(input)},
                     {"max_output_tokens", options.max_tokens},
                     {"temperature", options.temperature},
                     {"stream", true}};
        if (options.top_p >= 0) body["top_p"] = options.top_p;
        return body;
      });
}

RequestBody ollama_chat_request_body(const plan::PromptSpec& prompt,
                                     const ChatRequestOptions& options) {
  return build_body(
      prompt, options, MediaWire::BareBase64,
      [&](const std::vector<plan::ChatMessage>& messages, std::vector<std::string> payloads,
          size_t with_media) {
        json msgs = json::array();
        for (size_t i = 0; i < messages.size(); ++i) {
          json m = {{"role", messages[i].role}, {"content", messages[i].content}};
          if (i == with_media) m["images"] = std::move(payloads);
          msgs.push_back(std::move(m));
        }
        json opts = {{"temperature", options.temperature}, {"num_predict", options.max_tokens}};
        if (options.top_p >= 0) opts["top_p"] = options.top_p;
        if (options.seed >= 0) opts["seed"] = options.seed;
        return json{{"model", options.model},
                    {"messages", std::move(msgs)},
                    {"stream", true},
                    {"options", std::move(opts)}};
      });
}

}  // namespace lb::run
