#include "run/chat_request_body.h"

#include <nlohmann/json.hpp>

namespace lb::run {

bool accepts_continuous_usage(ServerKind server) {
  return server == ServerKind::Vllm || server == ServerKind::Sglang ||
         server == ServerKind::LanebenchSim;
}

bool accepts_seed(ServerKind server) { return server != ServerKind::Unknown; }

std::shared_ptr<const std::string> chat_request_body(const std::vector<plan::ChatMessage>& messages,
                                                     const ChatRequestOptions& options) {
  nlohmann::json body;
  body["model"] = options.model;
  nlohmann::json msgs = nlohmann::json::array();
  for (const auto& m : messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
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
  return std::make_shared<const std::string>(
      body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::shared_ptr<const std::string> chat_request_body(const std::string& user_prompt,
                                                     const ChatRequestOptions& options) {
  return chat_request_body(std::vector<plan::ChatMessage>{{"user", user_prompt}}, options);
}

}  // namespace lb::run
