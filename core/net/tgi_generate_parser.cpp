#include "net/tgi_generate_parser.h"

namespace lb::net {

void TgiGenerateParser::on_json(std::string_view, const nlohmann::json& j, int64_t arrival_ns) {
  if (const auto* token = find_key(j, "token")) {
    const bool special = find_key(*token, "special") && (*token)["special"].is_boolean() &&
                         (*token)["special"].get<bool>();
    const std::string_view text = string_at(*token, "text");
    if (!special && !text.empty()) {
      result_.content.append(text);
      add_event(arrival_ns, text.size(), 0, 0, 1);  // the native route sends one token per event
    }
  }
  if (const auto* details = find_key(j, "details")) {
    result_.finish_reason = string_at(*details, "finish_reason");
    result_.usage.completion_tokens =
        int_at(*details, "generated_tokens", result_.usage.completion_tokens);
    result_.usage.prompt_tokens = int_at(*details, "input_length", result_.usage.prompt_tokens);
  }
  if (find_key(j, "generated_text")) terminal_ = true;
}

}  // namespace lb::net
