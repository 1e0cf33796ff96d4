#pragma once
// OpenAI Responses API events (vLLM, llama.cpp, OpenAI): `event:` + `data:` with the same name in
// data.type, and no [DONE]; the stream ends with response.completed / .incomplete / .failed.
// Text arrives in response.output_text.delta, reasoning in response.reasoning_text.delta (or the
// summary variant), tool calls as output items of type function_call whose arguments stream in
// response.function_call_arguments.delta. Usage only in the final response object.
#include "core/net/dialect_parser.h"

namespace lb::net {

class ResponsesParser : public DialectParser {
 public:
  using DialectParser::DialectParser;

 protected:
  void on_json(std::string_view event_type, const nlohmann::json& j, int64_t arrival_ns) override;

 private:
  void read_final(std::string_view type, const nlohmann::json& response);
  // A non-streamed response object: all output items at once.
  void read_document(const nlohmann::json& response, int64_t arrival_ns);
};

}  // namespace lb::net
