#pragma once
// Figures as JSON: a number, or null where there is none (not a number, or a figure that cannot
// be negative and is: -1 marks "none" in the metric structs).
#include <cmath>
#include <cstdint>

#include <nlohmann/json.hpp>

namespace lb::record {

inline nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

// A count (tokens, requests) as a whole number; null where there is none.
inline nlohmann::json count_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(static_cast<int64_t>(v)) : nlohmann::json(nullptr);
}

inline nlohmann::json figure_or_null(double v) {
  return std::isfinite(v) && v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr);
}

// A figure with where it comes from ("server", "estimated", "measured"), as
// {"value": v, "provenance": p}; null without a value.
inline nlohmann::json labelled(const nlohmann::json& value, const char* provenance) {
  if (value.is_null()) return nullptr;
  return {{"value", value}, {"provenance", provenance}};
}

}  // namespace lb::record
