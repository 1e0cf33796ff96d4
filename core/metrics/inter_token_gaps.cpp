#include "core/metrics/inter_token_gaps.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace lb::metrics {

std::vector<double> itl_ms_from_stamps(const std::vector<int64_t>& stamps_ns) {
  std::vector<double> gaps;
  gaps.reserve(stamps_ns.size() > 0 ? stamps_ns.size() - 1 : 0);
  for (size_t i = 1; i < stamps_ns.size(); ++i)
    gaps.push_back(static_cast<double>(stamps_ns[i] - stamps_ns[i - 1]) / 1e6);
  return gaps;
}

std::vector<double> itl_ms_from_offsets(const std::vector<double>& offsets_ns) {
  std::vector<double> gaps;
  gaps.reserve(offsets_ns.size() > 0 ? offsets_ns.size() - 1 : 0);
  for (size_t i = 1; i < offsets_ns.size(); ++i) {
    const double a = offsets_ns[i - 1];
    const double b = offsets_ns[i];
    if (!std::isnan(a) && !std::isnan(b)) gaps.push_back((b - a) / 1e6);
  }
  return gaps;
}

std::vector<double> itl_ms_from_offsets(const nlohmann::json& offsets_ns) {
  if (!offsets_ns.is_array()) return {};
  std::vector<double> offsets;
  offsets.reserve(offsets_ns.size());
  for (const nlohmann::json& v : offsets_ns)
    offsets.push_back(v.is_number() ? v.get<double>() : std::numeric_limits<double>::quiet_NaN());
  return itl_ms_from_offsets(offsets);
}

}  // namespace lb::metrics
