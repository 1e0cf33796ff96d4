#pragma once
// Exact order statistics over values that keep arriving: insert one value at a time and read any
// percentile at any moment, equal to percentile()/describe() over all values inserted so far (the
// same numpy interpolation). Values live in sorted blocks of at most kMaxBlock, so an insert moves
// at most one block's values; a rank is found by binary search over the blocks' running counts,
// rebuilt once after inserts (one add per block). A live summary's cost follows what arrived, not
// the size of the run. A block that erases leave under a quarter full joins a neighbour, so the
// blocks stay few however the values drift.
#include <cstddef>
#include <vector>

#include "core/metrics/percentile.h"

namespace lb::metrics {

class OrderStatistics {
 public:
  static constexpr size_t kMaxBlock = 1024;

  void insert(double value);
  // Removes one value equal to `value`; false when there is none.
  bool erase(double value);
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The k-th smallest value (0-based, k < size()).
  double at(size_t k) const;
  // q in [0, 100]; NaN when empty. Equal to percentile(all values, q).
  double percentile(double q) const;
  // How many values the blocks have room for (their capacity): at most about four times size()
  // however values come and go, so a sample that keeps replacing its values holds bounded memory.
  size_t values_held() const;
  // count, mean, std (population), min, max and p50/p90/p95/p99; all NaN when empty. The
  // percentiles, min and max are exact; mean and std come from running sums (Welford) and agree
  // with describe() to rounding.
  Distribution describe() const;

 private:
  void count_blocks() const;
  // After an erase left block I small: joins it with its smaller neighbour when both fit in one.
  void merge_small(size_t i);

  std::vector<std::vector<double>> blocks_;  // each sorted; block i's values <= block i+1's
  // maxima_[i] == blocks_[i].back(): the insert's search stays in one contiguous array instead
  // of touching every visited block's memory.
  std::vector<double> maxima_;
  // ends_[i]: values in blocks 0..i; rebuilt by count_blocks() when stale.
  mutable std::vector<size_t> ends_;
  mutable bool ends_stale_ = false;
  size_t size_ = 0;
  double mean_ = 0, m2_ = 0;  // Welford's running mean and sum of squared deviations
};

}  // namespace lb::metrics
