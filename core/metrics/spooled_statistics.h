#pragma once
// Exact statistics of values that keep arriving, in memory that does not grow with them: each
// value goes to a ValueSpool on disk and into a histogram of its leading bits (sign, exponent and
// 8 bits of mantissa: 256 bins to an octave, only the bins that occur). count, mean, population
// deviation, minimum and maximum are running figures as in OrderStatistics (Welford). describe()
// finds the bin that holds each rank a percentile needs from the histogram, then reads the spool
// once and sorts only the values of those bins; a bin with more than `collect_cap` values is
// split by its next 16 bits in one more read, as often as it takes. The percentiles are equal to
// OrderStatistics' and numpy's (same ranks, same interpolation) however many values came.
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "core/metrics/percentile.h"
#include "core/metrics/value_spool.h"

namespace lb::metrics {

class SpooledStatistics {
 public:
  static constexpr size_t kCollectCap = size_t{1} << 20;  // 8 MB of values at most at once

  explicit SpooledStatistics(size_t collect_cap = kCollectCap) : collect_cap_(collect_cap) {}

  void insert(double value);
  size_t size() const { return static_cast<size_t>(spool_.size()); }
  bool empty() const { return spool_.size() == 0; }
  // All NaN when empty, as describe({}).
  Distribution describe() const;
  // The value of each 0-based rank (each < size()), in the order asked.
  std::vector<double> at_ranks(const std::vector<size_t>& ranks) const;
  const ValueSpool<double>& spool() const { return spool_; }

 private:
  struct Group;
  static std::vector<Group> split(const Group& group, const ValueSpool<double>& spool);
  void collect(std::vector<Group*>& groups, std::vector<double>& out) const;

  size_t collect_cap_;
  ValueSpool<double> spool_;
  std::map<uint32_t, int64_t> bins_;  // leading 20 bits of the ordered key -> values
  double mean_ = 0, m2_ = 0, min_ = 0, max_ = 0;
};

}  // namespace lb::metrics
