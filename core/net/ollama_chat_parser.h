#pragma once
// Ollama's native /api/chat NDJSON: message.content, message.thinking (reasoning) and
// message.tool_calls (arguments as an object) per line; the line with done:true carries
// done_reason, prompt_eval_count, eval_count and durations in nanoseconds, which go to
// server_timings as they are.
#include "core/net/dialect_parser.h"

namespace lb::net {

class OllamaChatParser : public DialectParser {
 public:
  using DialectParser::DialectParser;

 protected:
  void on_json(std::string_view event_type, const nlohmann::json& j, int64_t arrival_ns) override;

 private:
  void read_done(const nlohmann::json& j);
  int next_tool_index_ = 0;
};

}  // namespace lb::net
