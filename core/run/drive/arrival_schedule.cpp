#include "core/run/drive/arrival_schedule.h"

#include <cmath>
#include <random>

namespace lb::run {

std::vector<int64_t> arrival_offsets_ns(const ArrivalOptions& options, int64_t count,
                                        int64_t duration_ns) {
  std::vector<int64_t> out;
  const bool unbounded_rate =
      !(options.request_rate_per_s > 0) || std::isinf(options.request_rate_per_s);
  if (unbounded_rate) {
    out.assign(static_cast<size_t>(count > 0 ? count : 0), 0);
    return out;
  }
  const double shape = options.burstiness > 0 ? options.burstiness : 1.0;
  const double scale_s = 1.0 / (options.request_rate_per_s * shape);
  std::mt19937_64 rng(options.seed);
  std::gamma_distribution<double> gap_s(shape, scale_s);
  double t_s = 0;
  // A duration-only bound still needs a ceiling so a typo'd rate cannot exhaust memory.
  constexpr int64_t kMaxRequests = 10'000'000;
  while (count > 0 ? static_cast<int64_t>(out.size()) < count
                   : static_cast<int64_t>(out.size()) < kMaxRequests) {
    t_s += gap_s(rng);
    const auto t_ns = static_cast<int64_t>(t_s * 1e9);
    if (duration_ns > 0 && t_ns >= duration_ns) break;
    out.push_back(t_ns);
  }
  return out;
}

}  // namespace lb::run
