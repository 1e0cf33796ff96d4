#pragma once
// vLLM's wire format for chat and text completions (tests/fixtures/wire/vllm_*): one SSE event
// per call, key order as vLLM's pydantic models dump them, compact separators.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "output_script.h"

namespace lb::sim {

struct WireContext {
  std::string id;  // chatcmpl-... / cmpl-... / resp_...
  int64_t created = 0;
  std::string model;
  int64_t prompt_tokens = 0;
  int64_t cached_tokens = 0;
  bool report_cached = false;     // prompt_tokens_details (prefix caching on)
  bool report_reasoning = false;  // completion_tokens_details (reasoning requested)
};

struct UsageSoFar {
  int64_t completion_tokens = 0;
  int64_t reasoning_tokens = 0;
};

// Per-request speculative decoding tallies (final chunk `metrics.speculative_decoding`).
struct SpecTally {
  int num_spec_tokens = 0;
  int64_t steps = 0;
  int64_t draft_tokens = 0;
  int64_t accepted = 0;
  std::vector<int64_t> histogram;  // steps by number of accepted drafts
  void add(int drafted, int accepted_now);
};

std::string sse(const std::string& json_text);
std::string sse_done();

std::string chat_role_chunk(const WireContext& c, const std::optional<UsageSoFar>& usage);
std::string chat_delta_chunk(const WireContext& c, const OutputDelta& d,
                             const std::vector<PlannedToolCall>& calls, const std::string& finish,
                             const std::optional<UsageSoFar>& usage);
// A delta without tool calls (reasoning and/or content), built without a JSON tree.
std::string chat_text_chunk(const WireContext& c, const OutputDelta& d, const std::string& finish,
                            const std::optional<UsageSoFar>& usage);
std::string chat_usage_chunk(const WireContext& c, const UsageSoFar& u, const SpecTally* spec);
std::string chat_response(const WireContext& c, const OutputScript& s, const UsageSoFar& u);

std::string completion_chunk(const WireContext& c, const std::string& text,
                             const std::string& finish, const std::optional<UsageSoFar>& usage);
std::string completion_usage_chunk(const WireContext& c, const UsageSoFar& u);
std::string completion_response(const WireContext& c, const OutputScript& s, const UsageSoFar& u);

// {"error": {...}} as vLLM streams it (json.dumps spacing) and as its HTTP error bodies.
std::string stream_error_json(const std::string& message, const std::string& type, int code);
std::string error_body(const std::string& message, const std::string& type,
                       const std::string& param, int code);

nlohmann::ordered_json usage_json(const WireContext& c, const UsageSoFar& u, bool final_chunk);

}  // namespace lb::sim
