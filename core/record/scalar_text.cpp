#include "core/record/scalar_text.h"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace lb::record {

std::string scalar_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number_unsigned()) return std::to_string(v.get<unsigned long long>());
  if (v.is_number()) {
    const double d = v.get<double>();
    if (std::isnan(d) || d < 0) return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", d);
    return buf;
  }
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<std::pair<std::string, std::string>> scalar_members(const nlohmann::json& value) {
  std::vector<std::pair<std::string, std::string>> out;
  if (value.is_object())
    for (const auto& [key, v] : value.items()) out.emplace_back(key, scalar_text(v));
  return out;
}

}  // namespace lb::record
