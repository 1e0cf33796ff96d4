#include "core/metrics/sampled_statistics.h"

#include <algorithm>
#include <cmath>

namespace lb::metrics {

void SampledStatistics::insert(double value) {
  ++seen_;
  const double delta = value - mean_;
  mean_ += delta / static_cast<double>(seen_);
  m2_ += delta * (value - mean_);
  min_ = seen_ == 1 ? value : std::min(min_, value);
  max_ = seen_ == 1 ? value : std::max(max_, value);
  if (sample_.size() < capacity_) {
    sample_.push_back(value);
    ranked_.insert(value);
    return;
  }
  std::uniform_int_distribution<int64_t> slot(0, seen_ - 1);
  const int64_t k = slot(rng_);
  if (k >= static_cast<int64_t>(capacity_)) return;
  double& replaced = sample_[static_cast<size_t>(k)];
  ranked_.erase(replaced);
  replaced = value;
  ranked_.insert(value);
}

Distribution SampledStatistics::describe() const {
  if (seen_ == 0) return metrics::describe({});
  Distribution d = ranked_.describe();  // the percentiles
  d.count = static_cast<size_t>(seen_);
  d.mean = mean_;
  d.std = std::sqrt(m2_ / static_cast<double>(seen_));
  d.min = min_;
  d.max = max_;
  return d;
}

}  // namespace lb::metrics
