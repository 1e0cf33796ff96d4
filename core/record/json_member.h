#pragma once
// One member of a JSON object read as a type, for the record's accessors over the members it keeps
// untyped: a member of another type (or a value that is not an object) reads as absent, never a
// throw.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace lb::record {

// The member, or a null value.
inline const nlohmann::json& member(const nlohmann::json& object, const char* key) {
  static const nlohmann::json kNone;
  if (!object.is_object()) return kNone;
  const auto at = object.find(key);
  return at == object.end() ? kNone : *at;
}

// A string member; "" when absent.
inline std::string member_text(const nlohmann::json& object, const char* key) {
  const nlohmann::json& at = member(object, key);
  return at.is_string() ? at.get<std::string>() : std::string();
}

// A number member; NaN when absent.
inline double member_number(const nlohmann::json& object, const char* key) {
  const nlohmann::json& at = member(object, key);
  return at.is_number() ? at.get<double>() : NAN;
}

// A number member that may carry its provenance ({"value": x, "provenance": p}); NaN when absent.
inline double member_figure(const nlohmann::json& object, const char* key) {
  const nlohmann::json& at = member(object, key);
  return at.is_number() ? at.get<double>() : member_number(at, "value");
}

// A whole-number member (a count, an index); FALLBACK when absent, not whole or beyond int64.
inline int64_t member_count(const nlohmann::json& object, const char* key, int64_t fallback = 0) {
  const nlohmann::json& at = member(object, key);
  if (at.is_number_unsigned())
    return at.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX) ? at.get<int64_t>() : fallback;
  if (at.is_number_integer()) return at.get<int64_t>();
  if (!at.is_number_float()) return fallback;
  const double v = at.get<double>();
  return std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e18 ? static_cast<int64_t>(v)
                                                                         : fallback;
}

// A boolean member; false when absent.
inline bool member_flag(const nlohmann::json& object, const char* key) {
  const nlohmann::json& at = member(object, key);
  return at.is_boolean() && at.get<bool>();
}

// A boolean member; nullopt when absent or of another type (a verdict that was not given).
inline std::optional<bool> member_optional_flag(const nlohmann::json& object, const char* key) {
  const nlohmann::json& at = member(object, key);
  return at.is_boolean() ? std::optional<bool>(at.get<bool>()) : std::nullopt;
}

// A member that is a pair of numbers ([lo, hi]); nullopt when it is anything else.
inline std::optional<std::pair<double, double>> member_pair(const nlohmann::json& object,
                                                            const char* key) {
  const nlohmann::json& at = member(object, key);
  if (!at.is_array() || at.size() != 2 || !at[0].is_number() || !at[1].is_number())
    return std::nullopt;
  return std::pair{at[0].get<double>(), at[1].get<double>()};
}

}  // namespace lb::record
