#pragma once
// Figures as JSON: a number, or null where there is none (not a number, or a figure that cannot
// be negative and is: -1 marks "none" in the metric structs).
#include <cmath>

#include <nlohmann/json.hpp>

namespace lb::record {

inline nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

inline nlohmann::json figure_or_null(double v) {
  return std::isfinite(v) && v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr);
}

}  // namespace lb::record
