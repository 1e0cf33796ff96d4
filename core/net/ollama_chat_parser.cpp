#include "core/net/ollama_chat_parser.h"

#include "core/logprobs/wire_logprobs.h"

namespace lb::net {

void OllamaChatParser::on_json(std::string_view, const nlohmann::json& j, int64_t arrival_ns) {
  if (result_.model.empty()) result_.model = string_at(j, "model");
  size_t content_bytes = 0, reasoning_bytes = 0, tool_call_bytes = 0;
  if (const auto* message = find_key(j, "message")) {
    const std::string_view content = string_at(*message, "content");
    const std::string_view thinking = string_at(*message, "thinking");
    result_.content.append(content);
    result_.reasoning.append(thinking);
    content_bytes = content.size();
    reasoning_bytes = thinking.size();
    if (const auto* calls = find_key(*message, "tool_calls"); calls && calls->is_array()) {
      for (const auto& entry : *calls) {  // whole calls, never fragments
        ToolCall& call = tool_call(next_tool_index_++);
        const auto* function = find_key(entry, "function");
        if (!function) continue;
        call.name = string_at(*function, "name");
        if (const auto* args = find_key(*function, "arguments")) {
          call.arguments = args->is_string() ? args->get<std::string>() : args->dump();
        }
        tool_call_bytes += call.name.size() + call.arguments.size();
      }
    }
  }
  if (const auto* logprobs = find_key(j, "logprobs")) {
    result_.logprobs_seen = true;
    logprobs::append_ollama(*logprobs, result_.logprobs);
  }
  add_event(arrival_ns, content_bytes, reasoning_bytes, -1, tool_call_bytes);
  if (const auto* done = find_key(j, "done"); done && done->is_boolean() && done->get<bool>()) {
    read_done(j);
  }
}

void OllamaChatParser::read_done(const nlohmann::json& j) {
  terminal_ = true;
  result_.finish_reason = string_at(j, "done_reason");
  result_.usage.prompt_tokens = int_at(j, "prompt_eval_count", result_.usage.prompt_tokens);
  result_.usage.completion_tokens = int_at(j, "eval_count", result_.usage.completion_tokens);
  nlohmann::json timings = nlohmann::json::object();
  for (const char* key : {"total_duration", "load_duration", "prompt_eval_count",
                          "prompt_eval_duration", "eval_count", "eval_duration"}) {
    if (const auto* v = find_key(j, key)) timings[key] = *v;
  }
  result_.server_timings = std::move(timings);
}

}  // namespace lb::net
