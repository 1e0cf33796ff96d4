#include "metrics/order_statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lb::metrics {

void OrderStatistics::insert(double value) {
  ++size_;
  ends_stale_ = true;
  const double delta = value - mean_;
  mean_ += delta / static_cast<double>(size_);
  m2_ += delta * (value - mean_);
  if (blocks_.empty()) {
    blocks_.emplace_back().push_back(value);
    return;
  }
  // The first block whose largest value is above `value` takes it; else the last block.
  auto block =
      std::upper_bound(blocks_.begin(), blocks_.end(), value,
                       [](double v, const std::vector<double>& b) { return v < b.back(); });
  if (block == blocks_.end()) --block;
  block->insert(std::upper_bound(block->begin(), block->end(), value), value);
  if (block->size() > kMaxBlock) {
    std::vector<double> upper(block->begin() + static_cast<std::ptrdiff_t>(kMaxBlock / 2),
                              block->end());
    block->resize(kMaxBlock / 2);
    blocks_.insert(block + 1, std::move(upper));
  }
}

void OrderStatistics::count_blocks() const {
  ends_.resize(blocks_.size());
  size_t total = 0;
  for (size_t i = 0; i < blocks_.size(); ++i) ends_[i] = total += blocks_[i].size();
  ends_stale_ = false;
}

double OrderStatistics::at(size_t k) const {
  if (k >= size_) return std::numeric_limits<double>::quiet_NaN();
  if (ends_stale_) count_blocks();
  const auto block =
      static_cast<size_t>(std::upper_bound(ends_.begin(), ends_.end(), k) - ends_.begin());
  const size_t before = block == 0 ? 0 : ends_[block - 1];
  return blocks_[block][k - before];
}

double OrderStatistics::percentile(double q) const {
  if (size_ == 0) return std::numeric_limits<double>::quiet_NaN();
  const PercentileIndex index = percentile_index(size_, q);
  return interpolate_percentile(at(index.lo), at(index.hi), index.gamma);
}

Distribution OrderStatistics::describe() const {
  if (size_ == 0) return metrics::describe({});
  Distribution d;
  d.count = size_;
  d.mean = mean_;
  d.std = std::sqrt(m2_ / static_cast<double>(size_));
  d.median = d.p50 = percentile(50);
  d.p90 = percentile(90);
  d.p95 = percentile(95);
  d.p99 = percentile(99);
  d.min = blocks_.front().front();
  d.max = blocks_.back().back();
  return d;
}

}  // namespace lb::metrics
