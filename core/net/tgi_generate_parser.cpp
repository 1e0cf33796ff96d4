#include "core/net/tgi_generate_parser.h"

#include "core/logprobs/wire_logprobs.h"

namespace lb::net {

void TgiGenerateParser::on_json(std::string_view, const nlohmann::json& j, int64_t arrival_ns) {
  if (const auto* token = find_key(j, "token")) {
    const bool special = find_key(*token, "special") && (*token)["special"].is_boolean() &&
                         (*token)["special"].get<bool>();
    const std::string_view text = string_at(*token, "text");
    if (!special && !text.empty()) {
      result_.content.append(text);
      add_event(arrival_ns, text.size(), 0, 1);  // the native route sends one token per event
      // logprob is always there; top_tokens only with top_n_tokens, so it alone says "asked".
      if (const auto* top = find_key(j, "top_tokens")) {
        result_.logprobs_seen = true;
        logprobs::append_tgi_token(*token, top, result_.logprobs);
      }
    }
  }
  if (const auto* details = find_key(j, "details")) {
    result_.finish_reason = string_at(*details, "finish_reason");
    result_.usage.completion_tokens =
        int_at(*details, "generated_tokens", result_.usage.completion_tokens);
    result_.usage.prompt_tokens = int_at(*details, "input_length", result_.usage.prompt_tokens);
  }
  // Non-streamed /generate: the whole text at once, no token events before it.
  const std::string_view whole = string_at(j, "generated_text");
  if (!find_key(j, "token") && result_.events.empty() && !whole.empty()) {
    if (const auto* details = find_key(j, "details"); details && find_key(*details, "tokens")) {
      result_.logprobs_seen = true;
      logprobs::append_tgi_details(*details, result_.logprobs);
    }
    result_.content.append(whole);
    const int64_t tokens = result_.usage.completion_tokens;
    add_event(arrival_ns, whole.size(), 0, tokens > 0 ? static_cast<int32_t>(tokens) : -1);
  }
  if (find_key(j, "generated_text")) terminal_ = true;
}

}  // namespace lb::net
