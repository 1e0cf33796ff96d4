#include "wire_format.h"

namespace lb::sim {
namespace {

using ojson = nlohmann::ordered_json;

ojson chunk_head(const WireContext& c, const char* object) {
  ojson j;
  j["id"] = c.id;
  j["object"] = object;
  j["created"] = c.created;
  j["model"] = c.model;
  return j;
}

ojson tool_fragment_json(const ToolFragment& f, const std::vector<PlannedToolCall>& calls) {
  ojson t;
  const PlannedToolCall& call = calls.at(static_cast<size_t>(f.index));
  if (f.header) {
    t["id"] = call.id;
    t["type"] = "function";
  }
  t["index"] = f.index;
  ojson fn = ojson::object();
  if (f.header) fn["name"] = call.name;
  if (!f.arguments.empty() || !f.header) fn["arguments"] = f.arguments;
  t["function"] = fn;
  return t;
}

// The hot path (one per generated event): the same bytes as the ordered_json form, without
// building a JSON tree per token.
std::string escaped(const std::string& text) { return nlohmann::json(text).dump(); }

std::string text_head(const WireContext& c, const char* object) {
  return "data: {\"id\":" + escaped(c.id) + ",\"object\":\"" + object +
         "\",\"created\":" + std::to_string(c.created) + ",\"model\":" + escaped(c.model) +
         ",\"choices\":[{\"index\":0,";
}

std::string finish_tail(const std::string& finish) {
  return finish.empty() ? "\"finish_reason\":null"
                        : "\"finish_reason\":" + escaped(finish) + ",\"stop_reason\":null";
}

}  // namespace

std::string chat_text_chunk(const WireContext& c, const OutputDelta& d, const std::string& finish,
                            const std::optional<UsageSoFar>& usage) {
  std::string out = text_head(c, "chat.completion.chunk");
  out += "\"delta\":{";
  if (!d.reasoning.empty()) out += "\"reasoning\":" + escaped(d.reasoning);
  if (!d.content.empty()) {
    if (!d.reasoning.empty()) out += ',';
    out += "\"content\":" + escaped(d.content);
  }
  out += "},\"logprobs\":null," + finish_tail(finish) + ",\"token_ids\":null}]";
  if (usage) out += ",\"usage\":" + usage_json(c, *usage, false).dump();
  out += "}\n\n";
  return out;
}

void SpecTally::add(int drafted, int accepted_now) {
  if (histogram.empty()) histogram.assign(static_cast<size_t>(num_spec_tokens) + 1, 0);
  ++steps;
  draft_tokens += drafted;
  accepted += accepted_now;
  if (accepted_now >= 0 && static_cast<size_t>(accepted_now) < histogram.size()) {
    ++histogram[static_cast<size_t>(accepted_now)];
  }
}

std::string sse(const std::string& json_text) { return "data: " + json_text + "\n\n"; }
std::string sse_done() { return "data: [DONE]\n\n"; }

ojson usage_json(const WireContext& c, const UsageSoFar& u, bool final_chunk) {
  ojson j;
  j["prompt_tokens"] = c.prompt_tokens;
  j["total_tokens"] = c.prompt_tokens + u.completion_tokens;
  j["completion_tokens"] = u.completion_tokens;
  // vLLM reports cached tokens only in the final usage (never in continuous usage).
  if (final_chunk && c.report_cached)
    j["prompt_tokens_details"] = {{"cached_tokens", c.cached_tokens}};
  if (c.report_reasoning)
    j["completion_tokens_details"] = {{"reasoning_tokens", u.reasoning_tokens}};
  return j;
}

std::string chat_role_chunk(const WireContext& c, const std::optional<UsageSoFar>& usage) {
  ojson j = chunk_head(c, "chat.completion.chunk");
  ojson choice;
  choice["index"] = 0;
  choice["delta"] = {{"role", "assistant"}, {"content", ""}};
  choice["logprobs"] = nullptr;
  choice["finish_reason"] = nullptr;
  j["choices"] = ojson::array({choice});
  if (usage) j["usage"] = usage_json(c, *usage, false);
  j["prompt_token_ids"] = nullptr;
  return sse(j.dump());
}

std::string chat_delta_chunk(const WireContext& c, const OutputDelta& d,
                             const std::vector<PlannedToolCall>& calls, const std::string& finish,
                             const std::optional<UsageSoFar>& usage) {
  if (d.tools.empty()) return chat_text_chunk(c, d, finish, usage);
  ojson j = chunk_head(c, "chat.completion.chunk");
  ojson delta = ojson::object();
  if (!d.reasoning.empty()) delta["reasoning"] = d.reasoning;
  if (!d.content.empty()) delta["content"] = d.content;
  ojson list = ojson::array();
  for (const auto& f : d.tools) list.push_back(tool_fragment_json(f, calls));
  delta["tool_calls"] = list;
  ojson choice;
  choice["index"] = 0;
  choice["delta"] = delta;
  choice["logprobs"] = nullptr;
  if (finish.empty()) {
    choice["finish_reason"] = nullptr;
  } else {
    choice["finish_reason"] = finish;
    choice["stop_reason"] = nullptr;
  }
  choice["token_ids"] = nullptr;
  j["choices"] = ojson::array({choice});
  if (usage) j["usage"] = usage_json(c, *usage, false);
  return sse(j.dump());
}

std::string chat_usage_chunk(const WireContext& c, const UsageSoFar& u, const SpecTally* spec) {
  ojson j = chunk_head(c, "chat.completion.chunk");
  j["choices"] = ojson::array();
  j["usage"] = usage_json(c, u, true);
  if (spec && spec->steps > 0) {
    ojson sd;
    sd["mean_acceptance_length"] =
        1.0 + static_cast<double>(spec->accepted) / static_cast<double>(spec->steps);
    sd["draft_acceptance_rate"] =
        spec->draft_tokens > 0
            ? static_cast<double>(spec->accepted) / static_cast<double>(spec->draft_tokens)
            : 0.0;
    sd["acceptance_histogram"] = spec->histogram;
    sd["num_spec_steps"] = spec->steps;
    sd["num_accepted_draft_tokens"] = spec->accepted;
    sd["num_draft_tokens"] = spec->draft_tokens;
    sd["num_spec_tokens"] = spec->num_spec_tokens;
    j["metrics"] = {{"speculative_decoding", sd}};
  }
  return sse(j.dump());
}

std::string chat_response(const WireContext& c, const OutputScript& s, const UsageSoFar& u) {
  ojson j = chunk_head(c, "chat.completion");
  const OutputDelta d = s.delta(0, s.size());
  ojson message;
  message["role"] = "assistant";
  message["content"] =
      d.content.empty() && !s.tool_calls.empty() ? ojson(nullptr) : ojson(d.content);
  message["refusal"] = nullptr;
  message["annotations"] = nullptr;
  message["audio"] = nullptr;
  message["function_call"] = nullptr;
  ojson calls = ojson::array();
  for (const auto& f : d.tools) {
    if (!f.header) continue;
    const PlannedToolCall& call = s.tool_calls.at(static_cast<size_t>(f.index));
    std::string args;
    for (const auto& g : d.tools) {
      if (g.index == f.index) args += g.arguments;
    }
    calls.push_back({{"id", call.id},
                     {"type", "function"},
                     {"function", {{"name", call.name}, {"arguments", args}}}});
  }
  message["tool_calls"] = calls;
  message["reasoning"] = d.reasoning.empty() ? ojson(nullptr) : ojson(d.reasoning);
  ojson choice;
  choice["index"] = 0;
  choice["message"] = message;
  choice["logprobs"] = nullptr;
  choice["finish_reason"] = s.finish_reason;
  choice["stop_reason"] = nullptr;
  j["choices"] = ojson::array({choice});
  j["service_tier"] = nullptr;
  j["system_fingerprint"] = nullptr;
  j["usage"] = usage_json(c, u, true);
  j["prompt_logprobs"] = nullptr;
  j["prompt_token_ids"] = nullptr;
  j["kv_transfer_params"] = nullptr;
  return j.dump();
}

std::string completion_chunk(const WireContext& c, const std::string& text,
                             const std::string& finish, const std::optional<UsageSoFar>& usage) {
  std::string out = text_head(c, "text_completion");
  out += "\"text\":" + escaped(text) + ",\"logprobs\":null,";
  out += finish.empty() ? "\"finish_reason\":null,\"stop_reason\":null"
                        : "\"finish_reason\":" + escaped(finish) + ",\"stop_reason\":null";
  out += ",\"prompt_token_ids\":null,\"token_ids\":null}]";
  if (usage) out += ",\"usage\":" + usage_json(c, *usage, false).dump();
  out += "}\n\n";
  return out;
}

std::string completion_usage_chunk(const WireContext& c, const UsageSoFar& u) {
  ojson j = chunk_head(c, "text_completion");
  j["choices"] = ojson::array();
  WireContext cc = c;
  cc.report_cached = true;  // the completions final usage always carries prompt_tokens_details
  j["usage"] = usage_json(cc, u, true);
  return sse(j.dump());
}

std::string completion_response(const WireContext& c, const OutputScript& s, const UsageSoFar& u) {
  ojson j = chunk_head(c, "text_completion");
  ojson choice;
  choice["index"] = 0;
  choice["text"] = s.delta(0, s.size()).content;
  choice["logprobs"] = nullptr;
  choice["finish_reason"] = s.finish_reason;
  choice["stop_reason"] = nullptr;
  choice["prompt_logprobs"] = nullptr;
  j["choices"] = ojson::array({choice});
  j["service_tier"] = nullptr;
  j["system_fingerprint"] = nullptr;
  j["usage"] = usage_json(c, u, true);
  j["kv_transfer_params"] = nullptr;
  return j.dump();
}

std::string stream_error_json(const std::string& message, const std::string& type, int code) {
  // json.dumps' default separators (", " and ": "), as vLLM's create_streaming_error_response.
  return "{\"error\": {\"message\": " + nlohmann::json(message).dump() +
         ", \"type\": " + nlohmann::json(type).dump() +
         ", \"param\": null, \"code\": " + std::to_string(code) + "}}";
}

std::string error_body(const std::string& message, const std::string& type,
                       const std::string& param, int code) {
  ojson e;
  e["message"] = message;
  e["type"] = type;
  e["param"] = param.empty() ? ojson(nullptr) : ojson(param);
  e["code"] = code;
  return ojson{{"error", e}}.dump();
}

}  // namespace lb::sim
