#include "core/run/experiments/capacity_search.h"

#include <algorithm>
#include <cmath>

namespace lb::run {

CapacitySearch::CapacitySearch(double start, double max_load, double resolution, bool integer_loads)
    : start_(start),
      max_load_(std::max(start, max_load)),
      resolution_(resolution > 0 ? resolution : 1),
      integer_loads_(integer_loads) {}

double CapacitySearch::snap(double load) const {
  if (!integer_loads_) return load;
  return std::max(1.0, std::floor(load));
}

std::optional<double> CapacitySearch::next() const {
  if (probes_.empty()) return snap(start_);
  if (!lowest_fail_) {  // still doubling
    if (!best_pass_ || *best_pass_ >= max_load_) return std::nullopt;
    return std::min(max_load_, snap(*best_pass_ * 2));
  }
  const double lo = best_pass_.value_or(0);
  const double hi = *lowest_fail_;
  if (hi - lo <= resolution_) return std::nullopt;
  const double mid = snap((lo + hi) / 2);
  if (mid <= lo || mid >= hi) return std::nullopt;  // no whole load left between them
  return mid;
}

void CapacitySearch::record(const CapacityProbe& probe) {
  probes_.push_back(probe);
  if (probe.pass) {
    best_pass_ = std::max(best_pass_.value_or(probe.load), probe.load);
  } else {
    lowest_fail_ = std::min(lowest_fail_.value_or(probe.load), probe.load);
  }
}

const CapacityProbe* CapacitySearch::capacity_probe() const {
  for (const auto& p : probes_)
    if (p.pass && best_pass_ && p.load == *best_pass_) return &p;
  return nullptr;
}

const CapacityProbe* CapacitySearch::limiting_probe() const {
  for (const auto& p : probes_)
    if (!p.pass && lowest_fail_ && p.load == *lowest_fail_) return &p;
  return nullptr;
}

}  // namespace lb::run
