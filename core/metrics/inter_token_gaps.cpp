#include "metrics/inter_token_gaps.h"

#include <nlohmann/json.hpp>

namespace lb::metrics {

std::vector<double> itl_ms_from_stamps(const std::vector<int64_t>& stamps_ns) {
  std::vector<double> gaps;
  gaps.reserve(stamps_ns.size() > 0 ? stamps_ns.size() - 1 : 0);
  for (size_t i = 1; i < stamps_ns.size(); ++i)
    gaps.push_back(static_cast<double>(stamps_ns[i] - stamps_ns[i - 1]) / 1e6);
  return gaps;
}

std::vector<double> itl_ms_from_offsets(const nlohmann::json& offsets_ns) {
  std::vector<double> gaps;
  if (!offsets_ns.is_array()) return gaps;
  gaps.reserve(offsets_ns.size() > 0 ? offsets_ns.size() - 1 : 0);
  for (size_t i = 1; i < offsets_ns.size(); ++i) {
    const nlohmann::json& a = offsets_ns[i - 1];
    const nlohmann::json& b = offsets_ns[i];
    if (a.is_number() && b.is_number()) gaps.push_back((b.get<double>() - a.get<double>()) / 1e6);
  }
  return gaps;
}

}  // namespace lb::metrics
