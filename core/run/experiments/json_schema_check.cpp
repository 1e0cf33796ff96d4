#include "core/run/experiments/json_schema_check.h"

namespace lb::run {
namespace {

bool has_type(const nlohmann::json& v, const std::string& type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "integer") return v.is_number_integer();
  if (type == "number") return v.is_number();
  if (type == "boolean") return v.is_boolean();
  if (type == "null") return v.is_null();
  return true;  // a type this validator does not know is not held against the answer
}

std::string type_violation(const nlohmann::json& v, const nlohmann::json& type,
                           const std::string& path) {
  if (type.is_string())
    return has_type(v, type) ? "" : path + ": expected " + type.get<std::string>();
  if (type.is_array()) {
    for (const auto& t : type)
      if (t.is_string() && has_type(v, t)) return "";
    return path + ": expected one of " + type.dump();
  }
  return "";
}

}  // namespace

std::string json_schema_violation(const nlohmann::json& value, const nlohmann::json& schema,
                                  const std::string& path) {
  if (!schema.is_object()) return "";
  if (schema.contains("type")) {
    if (auto why = type_violation(value, schema["type"], path); !why.empty()) return why;
  }
  if (schema.contains("enum") && schema["enum"].is_array()) {
    bool found = false;
    for (const auto& e : schema["enum"]) found = found || e == value;
    if (!found) return path + ": " + value.dump() + " is not in " + schema["enum"].dump();
  }
  if (value.is_object()) {
    if (schema.contains("required") && schema["required"].is_array())
      for (const auto& name : schema["required"])
        if (name.is_string() && !value.contains(name.get<std::string>()))
          return path + ": missing required " + name.get<std::string>();
    if (schema.contains("properties") && schema["properties"].is_object())
      for (const auto& [name, sub] : schema["properties"].items())
        if (value.contains(name))
          if (auto why = json_schema_violation(value[name], sub, path + "." + name); !why.empty())
            return why;
  }
  if (value.is_array() && schema.contains("items"))
    for (size_t i = 0; i < value.size(); ++i)
      if (auto why = json_schema_violation(value[i], schema["items"],
                                           path + "[" + std::to_string(i) + "]");
          !why.empty())
        return why;
  return "";
}

nlohmann::json parse_answer_json(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_discarded()) return j;
  const auto open = text.find("```");
  if (open == std::string::npos) return j;
  const auto body = text.find('\n', open);
  const auto close = text.find("```", body == std::string::npos ? open + 3 : body);
  if (body == std::string::npos || close == std::string::npos) return j;
  return nlohmann::json::parse(text.substr(body + 1, close - body - 1), nullptr, false);
}

}  // namespace lb::run
