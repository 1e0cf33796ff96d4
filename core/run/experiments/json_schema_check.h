#pragma once
// A small JSON Schema validator for the gates: type, required, properties, items, enum. Enough to
// check a structured-output answer or tool-call arguments against the schema the request sent.
#include <string>

#include <nlohmann/json.hpp>

namespace lb::run {

// Empty when value satisfies schema; otherwise the first violation with its JSON path.
std::string json_schema_violation(const nlohmann::json& value, const nlohmann::json& schema,
                                  const std::string& path = "$");

// The JSON in a model's answer: the whole text, or the body of a ```json fence. Discarded
// (is_discarded()) when there is none.
nlohmann::json parse_answer_json(const std::string& text);

}  // namespace lb::run
