#pragma once
// Statistics of values that keep arriving, in bounded memory and constant time per value: count,
// mean, population deviation, minimum and maximum are exact (running sums); percentiles come from
// a uniform random sample of at most `capacity` values (Algorithm R with a fixed seed, so the same
// input draws the same sample) and are exact while no more than `capacity` values came. For the
// per-event distributions of a live summary (inter-token gaps: tens of millions in a long run),
// where exact order statistics would cost memory and cache misses that grow with the run.
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "core/metrics/order_statistics.h"
#include "core/metrics/percentile.h"

namespace lb::metrics {

class SampledStatistics {
 public:
  explicit SampledStatistics(size_t capacity = 20'000) : capacity_(capacity) {}

  void insert(double value);
  size_t size() const { return static_cast<size_t>(seen_); }
  bool empty() const { return seen_ == 0; }
  bool exact() const { return seen_ <= static_cast<int64_t>(capacity_); }
  const std::vector<double>& sample() const { return sample_; }
  Distribution describe() const;

 private:
  size_t capacity_;
  int64_t seen_ = 0;
  double mean_ = 0, m2_ = 0, min_ = 0, max_ = 0;
  std::vector<double> sample_;  // slot order, for replacement
  OrderStatistics ranked_;      // the same values, for percentiles
  std::mt19937_64 rng_{0x1b5eed};
};

}  // namespace lb::metrics
