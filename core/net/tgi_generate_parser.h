#pragma once
// TGI's native /generate_stream: one event per token ({"index","token":{"text","special"},...});
// the last event carries generated_text and details{finish_reason, generated_tokens,
// input_length}. No [DONE]; the final event is the end.
#include "core/net/dialect_parser.h"

namespace lb::net {

class TgiGenerateParser : public DialectParser {
 public:
  using DialectParser::DialectParser;

 protected:
  void on_json(std::string_view event_type, const nlohmann::json& j, int64_t arrival_ns) override;
};

}  // namespace lb::net
