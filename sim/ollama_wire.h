#pragma once
// Ollama's native /api/chat wire format (tests/fixtures/wire/ollama_api_chat.ndjson.txt): one
// JSON object per line (application/x-ndjson), no "data:" framing and no [DONE];
// message.content and message.thinking per line, tool calls whole with arguments as an object,
// and a last line with done: true, done_reason, the token counts and durations in nanoseconds.
// Errors are {"error": "..."}, as an HTTP body or as a line of the stream.
#include <cstdint>
#include <string>
#include <vector>

#include "output_script.h"
#include "wire_format.h"

namespace lb::sim {

// Server-side durations of one request, in nanoseconds.
struct OllamaTimings {
  int64_t total_ns = 0;
  int64_t load_ns = 0;
  int64_t prompt_eval_ns = 0;  // arrival to the first token (prefill)
  int64_t eval_ns = 0;         // the first token to the last
};

// A done: false line with the delta's content and thinking; `calls` (may be empty) go with it
// whole, as Ollama sends a tool call once it is complete.
std::string ollama_chat_line(const WireContext& c, const OutputDelta& d,
                             const std::vector<PlannedToolCall>& calls);
// The closing done: true line.
std::string ollama_done_line(const WireContext& c, const std::string& finish_reason,
                             const UsageSoFar& u, const OllamaTimings& t);
// A non-streamed answer ("stream": false): the whole message and the closing fields in one body.
std::string ollama_chat_response(const WireContext& c, const OutputScript& s, const UsageSoFar& u,
                                 const OllamaTimings& t);
// {"error": message}, with a newline when it is a line of a stream.
std::string ollama_error(const std::string& message, bool line = false);

// GET /api/version and /api/tags bodies.
std::string ollama_version_body(const std::string& version);
std::string ollama_tags_body(const std::string& model);
// GET /v1/models as Ollama's OpenAI layer lists its models (owned_by "library").
std::string ollama_models_body(const std::string& model, int64_t created_s);

}  // namespace lb::sim
