#include "core/net/responses_parser.h"

namespace lb::net {

namespace {

int32_t logprob_count(const nlohmann::json& j) {
  const auto* logprobs = find_key(j, "logprobs");
  return (logprobs && logprobs->is_array() && !logprobs->empty())
             ? static_cast<int32_t>(logprobs->size())
             : -1;
}

}  // namespace

void ResponsesParser::on_json(std::string_view event_type, const nlohmann::json& j,
                              int64_t arrival_ns) {
  std::string_view type = string_at(j, "type");
  if (type.empty()) type = event_type;
  if (type.empty() && string_at(j, "object") == "response") return read_document(j, arrival_ns);
  if (type == "response.output_text.delta") {
    const std::string_view delta = string_at(j, "delta");
    result_.content.append(delta);
    if (!delta.empty()) add_event(arrival_ns, delta.size(), 0, logprob_count(j));
  } else if (type == "response.reasoning_text.delta" ||
             type == "response.reasoning_summary_text.delta") {
    const std::string_view delta = string_at(j, "delta");
    result_.reasoning.append(delta);
    if (!delta.empty()) add_event(arrival_ns, 0, delta.size(), -1);
  } else if (type == "response.output_item.added") {
    const auto* item = find_key(j, "item");
    if (item && string_at(*item, "type") == "function_call") {
      ToolCall& call = tool_call(static_cast<int>(int_at(j, "output_index", 0)));
      call.id = string_at(*item, "call_id");
      call.name = string_at(*item, "name");
      call.arguments = string_at(*item, "arguments");
      add_event(arrival_ns, 0, 0, -1, call.name.size() + call.arguments.size());
    }
  } else if (type == "response.function_call_arguments.delta") {
    const std::string_view delta = string_at(j, "delta");
    tool_call(static_cast<int>(int_at(j, "output_index", 0))).arguments.append(delta);
    add_event(arrival_ns, 0, 0, -1, delta.size());
  } else if (type == "response.created" || type == "response.in_progress") {
    if (const auto* response = find_key(j, "response"); response && result_.model.empty()) {
      result_.model = string_at(*response, "model");
    }
  } else if (type == "response.completed" || type == "response.incomplete" ||
             type == "response.failed") {
    if (const auto* response = find_key(j, "response")) read_final(type, *response);
    terminal_ = true;
  }
}

void ResponsesParser::read_document(const nlohmann::json& response, int64_t arrival_ns) {
  size_t content = 0, reasoning = 0, tool_calls = 0;
  const auto* output = find_key(response, "output");
  for (const auto& item : output && output->is_array() ? *output : nlohmann::json::array()) {
    const std::string_view type = string_at(item, "type");
    if (type == "function_call") {
      ToolCall& call = tool_call(static_cast<int>(result_.tool_calls.size()));
      call.id = string_at(item, "call_id");
      call.name = string_at(item, "name");
      call.arguments = string_at(item, "arguments");
      tool_calls += call.name.size() + call.arguments.size();
      continue;
    }
    const auto* parts = find_key(item, "content");
    for (const auto& part : parts && parts->is_array() ? *parts : nlohmann::json::array()) {
      const std::string_view text = string_at(part, "text");
      if (string_at(part, "type") == "output_text") {
        result_.content.append(text);
        content += text.size();
      } else if (string_at(part, "type") == "reasoning_text") {
        result_.reasoning.append(text);
        reasoning += text.size();
      }
    }
  }
  read_final("response.completed", response);
  terminal_ = true;
  add_event(arrival_ns, content, reasoning, -1, tool_calls);
}

void ResponsesParser::read_final(std::string_view type, const nlohmann::json& response) {
  if (result_.model.empty()) result_.model = string_at(response, "model");
  if (const auto* usage = find_key(response, "usage")) {
    Usage& u = result_.usage;
    u.prompt_tokens = int_at(*usage, "input_tokens", u.prompt_tokens);
    u.completion_tokens = int_at(*usage, "output_tokens", u.completion_tokens);
    if (const auto* d = find_key(*usage, "input_tokens_details")) {
      u.cached_tokens = int_at(*d, "cached_tokens", u.cached_tokens);
    }
    if (const auto* d = find_key(*usage, "output_tokens_details")) {
      u.reasoning_tokens = int_at(*d, "reasoning_tokens", u.reasoning_tokens);
    }
  }
  const auto* incomplete = find_key(response, "incomplete_details");
  if (incomplete && !string_at(*incomplete, "reason").empty()) {
    result_.finish_reason = string_at(*incomplete, "reason");
  } else {
    result_.finish_reason = string_at(response, "status");
  }
  if (type == "response.failed") {
    const auto* error = find_key(response, "error");
    std::string message = error ? std::string(string_at(*error, "message")) : std::string();
    fail(ErrorKind::StreamError, message.empty() ? "response failed" : message);
  }
}

}  // namespace lb::net
