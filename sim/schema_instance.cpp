#include "schema_instance.h"
#include "core/text/ascii_text.h"

#include <algorithm>
#include <cctype>

namespace lb::sim {
namespace {

using nlohmann::json;

json string_for(const std::string& key, const std::vector<std::string>& hints, const json& schema) {
  const std::string k = text::ascii_lower(key);
  const std::string format = schema.value("format", "");
  if (format == "date") return "2024-01-01";
  if (format == "date-time") return "2024-01-01T00:00:00Z";
  if (format == "email" || k.find("email") != std::string::npos) return "user@example.com";
  const bool place = k.find("city") != std::string::npos ||
                     k.find("location") != std::string::npos ||
                     k.find("place") != std::string::npos || k.find("name") != std::string::npos;
  if (place && !hints.empty()) return hints.front();
  if (k.find("city") != std::string::npos || k.find("location") != std::string::npos) {
    return "Paris";
  }
  if (k.find("query") != std::string::npos && !hints.empty()) return hints.front();
  return key.empty() ? "value" : "example " + key;
}

}  // namespace

std::vector<std::string> proper_nouns(const std::string& text) {
  std::vector<std::string> out;
  bool sentence_start = true;
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (std::isalpha(c)) {
      size_t j = i;
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '-')) {
        ++j;
      }
      std::string word = text.substr(i, j - i);
      if (std::isupper(c) && !sentence_start && word.size() > 1 &&
          std::find(out.begin(), out.end(), word) == out.end()) {
        out.push_back(word);
      }
      sentence_start = false;
      i = j;
      continue;
    }
    if (c == '.' || c == '?' || c == '!' || c == '\n' || c == ':') sentence_start = true;
    ++i;
  }
  return out;
}

json schema_instance(const json& schema, const std::vector<std::string>& hints,
                     const std::string& key) {
  if (!schema.is_object()) return nullptr;
  if (schema.contains("const")) return schema["const"];
  if (schema.contains("enum") && schema["enum"].is_array() && !schema["enum"].empty()) {
    return schema["enum"][0];
  }
  for (const char* alt : {"anyOf", "oneOf", "allOf"}) {
    if (schema.contains(alt) && schema[alt].is_array() && !schema[alt].empty()) {
      return schema_instance(schema[alt][0], hints, key);
    }
  }
  std::string type = "object";
  if (schema.contains("type")) {
    const json& t = schema["type"];
    type = t.is_array() && !t.empty() ? t[0].get<std::string>() : t.get<std::string>();
  } else if (!schema.contains("properties")) {
    type = "string";
  }
  if (type == "object") {
    json obj = json::object();
    if (schema.contains("properties") && schema["properties"].is_object()) {
      for (const auto& [name, sub] : schema["properties"].items()) {
        obj[name] = schema_instance(sub, hints, name);
      }
    }
    return obj;
  }
  if (type == "array") {
    json arr = json::array();
    const size_t n = std::max<size_t>(1, schema.value("minItems", static_cast<size_t>(1)));
    for (size_t i = 0; i < n; ++i) {
      arr.push_back(schema_instance(schema.value("items", json::object()), hints, key));
    }
    return arr;
  }
  if (type == "integer") return std::max<int64_t>(schema.value("minimum", int64_t{1}), 1);
  if (type == "number") return std::max(schema.value("minimum", 1.5), 1.5);
  if (type == "boolean") return true;
  if (type == "null") return nullptr;
  return string_for(key, hints, schema);
}

}  // namespace lb::sim
