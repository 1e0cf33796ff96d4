#include "ollama_wire.h"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace lb::sim {
namespace {

using ojson = nlohmann::ordered_json;

// RFC 3339 with nanoseconds in UTC, as Go formats time.Time: "2025-08-04T19:22:45.499127302Z".
std::string created_at() {
  const auto now = std::chrono::system_clock::now();
  const auto ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count();
  const std::time_t s = static_cast<std::time_t>(ns / 1'000'000'000);
  std::tm tm{};
  gmtime_r(&s, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%09lldZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<long long>(ns % 1'000'000'000));
  return buf;
}

ojson tool_calls_json(const std::vector<PlannedToolCall>& calls) {
  ojson list = ojson::array();
  for (size_t i = 0; i < calls.size(); ++i) {
    ojson args = ojson::parse(calls[i].arguments, nullptr, false);
    if (args.is_discarded()) args = ojson::object();
    list.push_back({{"id", calls[i].id},
                    {"function", {{"index", i}, {"name", calls[i].name}, {"arguments", args}}}});
  }
  return list;
}

ojson head(const WireContext& c) {
  ojson j;
  j["model"] = c.model;
  j["created_at"] = created_at();
  return j;
}

void add_closing(ojson& j, const WireContext& c, const std::string& finish, const UsageSoFar& u,
                 const OllamaTimings& t) {
  j["done"] = true;
  // Ollama ends a turn with tool calls as "stop"; "length" when num_predict cut it.
  j["done_reason"] = finish == "length" ? "length" : "stop";
  j["total_duration"] = t.total_ns;
  j["load_duration"] = t.load_ns;
  j["prompt_eval_count"] = c.prompt_tokens;
  j["prompt_eval_duration"] = t.prompt_eval_ns;
  j["eval_count"] = u.completion_tokens;
  j["eval_duration"] = t.eval_ns;
}

}  // namespace

std::string ollama_chat_line(const WireContext& c, const OutputDelta& d,
                             const std::vector<PlannedToolCall>& calls) {
  ojson j = head(c);
  ojson message = {{"role", "assistant"}, {"content", d.content}};
  if (!d.reasoning.empty()) message["thinking"] = d.reasoning;
  if (!calls.empty()) message["tool_calls"] = tool_calls_json(calls);
  j["message"] = std::move(message);
  j["done"] = false;
  return j.dump() + "\n";
}

std::string ollama_done_line(const WireContext& c, const std::string& finish_reason,
                             const UsageSoFar& u, const OllamaTimings& t) {
  ojson j = head(c);
  j["message"] = {{"role", "assistant"}, {"content", ""}};
  add_closing(j, c, finish_reason, u, t);
  return j.dump() + "\n";
}

std::string ollama_chat_response(const WireContext& c, const OutputScript& s, const UsageSoFar& u,
                                 const OllamaTimings& t) {
  ojson j = head(c);
  ojson message = {{"role", "assistant"}, {"content", s.content_text(u.completion_tokens)}};
  const std::string thinking = s.reasoning_text(u.completion_tokens);
  if (!thinking.empty()) message["thinking"] = thinking;
  if (!s.tool_calls.empty()) message["tool_calls"] = tool_calls_json(s.tool_calls);
  j["message"] = std::move(message);
  add_closing(j, c, s.finish_reason, u, t);
  return j.dump();
}

std::string ollama_error(const std::string& message, bool line) {
  return ojson{{"error", message}}.dump() + (line ? "\n" : "");
}

std::string ollama_version_body(const std::string& version) {
  return ojson{{"version", version}}.dump();
}

std::string ollama_tags_body(const std::string& model) {
  ojson details = {{"parent_model", ""},      {"format", "gguf"},
                   {"family", "qwen3"},       {"families", {"qwen3"}},
                   {"parameter_size", "27B"}, {"quantization_level", "Q8_0"}};
  ojson card = {{"name", model},
                {"model", model},
                {"modified_at", created_at()},
                {"size", 28'700'000'000LL},
                {"digest", "0000000000000000000000000000000000000000000000000000000000000000"},
                {"details", std::move(details)}};
  return ojson{{"models", ojson::array({std::move(card)})}}.dump();
}

std::string ollama_models_body(const std::string& model, int64_t created_s) {
  ojson card = {
      {"id", model}, {"object", "model"}, {"created", created_s}, {"owned_by", "library"}};
  return ojson{{"object", "list"}, {"data", ojson::array({std::move(card)})}}.dump();
}

}  // namespace lb::sim
