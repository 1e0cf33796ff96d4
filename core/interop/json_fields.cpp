#include "core/interop/json_fields.h"

#include <cmath>
#include <cstdint>

namespace lb::interop {

std::string json_type_phrase(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::array:
      return "an array";
    case nlohmann::json::value_t::string:
      return "a string";
    case nlohmann::json::value_t::boolean:
      return "a boolean";
    default:
      return value.is_number() ? "a number" : "an unsupported value";
  }
}

void JsonFields::fail(const std::string& message) {
  if (error_.empty()) error_ = where_ + ": " + message;
}

std::optional<double> JsonFields::number(const nlohmann::json& obj, const char* key) {
  if (!ok() || !obj.is_object() || !obj.contains(key) || obj[key].is_null()) return std::nullopt;
  const auto& v = obj[key];
  if (!v.is_number()) {
    fail(std::string("'") + key + "' is " + json_type_phrase(v) + ", expected a number");
    return std::nullopt;
  }
  return v.get<double>();
}

std::optional<int64_t> JsonFields::integer(const nlohmann::json& obj, const char* key) {
  const auto v = number(obj, key);
  if (!v) return std::nullopt;
  if (*v < -9.0e15 || *v > 9.0e15) {
    fail(std::string("'") + key + "' is out of range");
    return std::nullopt;
  }
  return static_cast<int64_t>(*v);
}

std::optional<std::string> JsonFields::string(const nlohmann::json& obj, const char* key) {
  if (!ok() || !obj.is_object() || !obj.contains(key) || obj[key].is_null()) return std::nullopt;
  const auto& v = obj[key];
  if (!v.is_string()) {
    fail(std::string("'") + key + "' is " + json_type_phrase(v) + ", expected a string");
    return std::nullopt;
  }
  return v.get<std::string>();
}

const nlohmann::json* JsonFields::array(const nlohmann::json& obj, const char* key) {
  if (!ok() || !obj.is_object() || !obj.contains(key) || obj[key].is_null()) return nullptr;
  const auto& v = obj[key];
  if (!v.is_array()) {
    fail(std::string("'") + key + "' is " + json_type_phrase(v) + ", expected an array");
    return nullptr;
  }
  return &v;
}

const nlohmann::json* JsonFields::object(const nlohmann::json& obj, const char* key) {
  if (!ok() || !obj.is_object() || !obj.contains(key) || obj[key].is_null()) return nullptr;
  const auto& v = obj[key];
  if (!v.is_object()) {
    fail(std::string("'") + key + "' is " + json_type_phrase(v) + ", expected an object");
    return nullptr;
  }
  return &v;
}

std::vector<double> JsonFields::numbers(const nlohmann::json& arr, const std::string& name,
                                        double null_as) {
  std::vector<double> out;
  if (!ok()) return out;
  out.reserve(arr.size());
  for (size_t i = 0; i < arr.size(); ++i) {
    const auto& v = arr[i];
    if (v.is_null()) {
      out.push_back(null_as);
    } else if (v.is_number()) {
      out.push_back(v.get<double>());
    } else {
      fail(name + "[" + std::to_string(i) + "] is " + json_type_phrase(v) + ", expected a number");
      return {};
    }
  }
  return out;
}

std::string string_or(const nlohmann::json& obj, const char* key, const std::string& fallback) {
  if (!obj.is_object() || !obj.contains(key) || !obj[key].is_string()) return fallback;
  return obj[key].get<std::string>();
}

bool bool_or(const nlohmann::json& obj, const char* key, bool fallback) {
  if (!obj.is_object() || !obj.contains(key) || !obj[key].is_boolean()) return fallback;
  return obj[key].get<bool>();
}

int64_t integer_or(const nlohmann::json& obj, const char* key, int64_t fallback) {
  if (!obj.is_object() || !obj.contains(key)) return fallback;
  const nlohmann::json& v = obj[key];
  if (v.is_number_unsigned())
    return v.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX)
               ? static_cast<int64_t>(v.get<uint64_t>())
               : fallback;
  if (v.is_number_integer()) return v.get<int64_t>();
  // A float only when it fits: casting 1e300 to an integer is undefined behaviour, and an
  // imported file is untrusted.
  const double d = v.is_number_float() ? v.get<double>() : NAN;
  return std::isfinite(d) && d > -9223372036854775808.0 && d < 9223372036854775808.0
             ? static_cast<int64_t>(d)
             : fallback;
}

const nlohmann::json* find_path(const nlohmann::json& root,
                                std::initializer_list<const char*> path) {
  const nlohmann::json* cur = &root;
  for (const char* key : path) {
    if (!cur->is_object() || !cur->contains(key)) return nullptr;
    cur = &(*cur)[key];
  }
  return cur->is_null() ? nullptr : cur;
}

}  // namespace lb::interop
