#pragma once
// OpenAI chat-completion and completion chunks, as sent by vLLM, SGLang, llama.cpp, TGI's OpenAI
// route and Ollama /v1. Only choice index 0 is assembled (LaneBench requests n = 1).
//  - content: delta.content (chat) / text (completions)
//  - reasoning: delta.reasoning_content or delta.reasoning; transitional vLLM sends both with the
//    same text, so one of them is taken per event, never the sum
//  - tool calls: fragments merged by tool_calls[].index
//  - tokens per event: token_ids, else logprobs entries, else the continuous-usage
//    completion_tokens increase, else llama.cpp's timings.predicted_n increase; -1 when the server
//    gave none of these
//  - usage, prompt_tokens_details.cached_tokens, llama.cpp `timings` (cache_n -> cached tokens
//    when usage has none), vLLM `metrics.speculative_decoding`
#include "core/net/dialect_parser.h"

namespace lb::net {

class OpenAiParser : public DialectParser {
 public:
  OpenAiParser(StreamResult& result, bool completions)
      : DialectParser(result), completions_(completions) {}

 protected:
  void on_json(std::string_view event_type, const nlohmann::json& j, int64_t arrival_ns) override;
  bool cuts_logprobs() const override { return true; }

 private:
  struct Output {
    size_t content = 0;
    size_t reasoning = 0;
    size_t tool_calls = 0;  // bytes of tool-call names and arguments
    int32_t tokens = -1;
  };
  void read_choice(const nlohmann::json& choice, Output& out);
  size_t read_tool_calls(const nlohmann::json& calls);  // returns the bytes it appended
  void read_llamacpp_timings(const nlohmann::json& timings);
  void read_vllm_metrics(const nlohmann::json& metrics);

  bool completions_;
  int64_t last_predicted_n_ = 0;
  int64_t timing_token_delta_ = -1;  // from llama.cpp timings in the current chunk
};

}  // namespace lb::net
