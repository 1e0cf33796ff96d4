#pragma once
// The /v1/responses event stream as vLLM sends it (tests/fixtures/wire/vllm_responses_stream.sse):
// "event: TYPE\ndata: JSON\n\n", a sequence_number on every event, reasoning and message output
// items opened and closed around their deltas, function_call items for tool calls, usage only in
// response.completed, and no [DONE].
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "output_script.h"
#include "wire_format.h"

namespace lb::sim {

class ResponsesEncoder {
 public:
  ResponsesEncoder(WireContext context, const OutputScript* script);

  std::vector<std::string> start();  // response.created, response.in_progress
  // Events for tokens [begin, end): opens/closes output items as channels change.
  std::vector<std::string> tokens(int64_t begin, int64_t end);
  std::vector<std::string> finish(const UsageSoFar& usage);  // closes items, response.completed
  std::string full_response(const UsageSoFar& usage);        // non-streamed body

  // Event index within the stream for which tokens() emitted text (for tracing).
  int64_t sequence_number() const { return seq_; }

 private:
  enum class Item { None, Reasoning, Message, Function };
  std::string event(const std::string& type, nlohmann::ordered_json body);
  nlohmann::ordered_json response_object(const char* status, const UsageSoFar* usage) const;
  nlohmann::ordered_json item_json(size_t output_index, bool done) const;
  void open_item(Item kind, int tool_index, std::vector<std::string>& out);
  void close_item(std::vector<std::string>& out);
  void append_text(const std::string& text, std::vector<std::string>& out);

  struct OutputItem {
    Item kind = Item::None;
    std::string id;
    std::string text;  // reasoning text, message text or function arguments
    int tool_index = -1;
  };

  WireContext c_;
  const OutputScript* script_;
  int64_t seq_ = 0;
  std::vector<OutputItem> items_;
  bool open_ = false;
};

}  // namespace lb::sim
