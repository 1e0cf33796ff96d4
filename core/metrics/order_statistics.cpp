#include "core/metrics/order_statistics.h"

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
    maxima_.push_back(value);
    return;
  }
  // The first block whose largest value is above `value` takes it; else the last block.
  auto i = static_cast<size_t>(std::upper_bound(maxima_.begin(), maxima_.end(), value) -
                               maxima_.begin());
  if (i == blocks_.size()) --i;
  std::vector<double>& block = blocks_[i];
  block.insert(std::upper_bound(block.begin(), block.end(), value), value);
  maxima_[i] = block.back();
  if (block.size() <= kMaxBlock) return;
  // Two new halves, each with room for what it holds: the grown block's spare room goes.
  const auto mid = block.begin() + static_cast<std::ptrdiff_t>(kMaxBlock / 2);
  std::vector<double> upper(mid, block.end());
  block = std::vector<double>(block.begin(), mid);
  maxima_[i] = block.back();
  const auto next = static_cast<std::ptrdiff_t>(i + 1);
  maxima_.insert(maxima_.begin() + next, upper.back());
  blocks_.insert(blocks_.begin() + next, std::move(upper));
}

void OrderStatistics::merge_small(size_t i) {
  if (blocks_[i].size() >= kMaxBlock / 4 || blocks_.size() < 2) return;
  // The smaller neighbour; the pair is (lo, lo + 1).
  size_t lo = i;
  if (i + 1 == blocks_.size() || (i > 0 && blocks_[i - 1].size() < blocks_[i + 1].size()))
    lo = i - 1;
  std::vector<double>& a = blocks_[lo];
  const std::vector<double>& b = blocks_[lo + 1];
  if (a.size() + b.size() > kMaxBlock) return;
  std::vector<double> merged;
  merged.reserve(a.size() + b.size());
  merged.insert(merged.end(), a.begin(), a.end());
  merged.insert(merged.end(), b.begin(), b.end());
  a = std::move(merged);
  maxima_[lo] = a.back();
  const auto gone = static_cast<std::ptrdiff_t>(lo + 1);
  blocks_.erase(blocks_.begin() + gone);
  maxima_.erase(maxima_.begin() + gone);
}

size_t OrderStatistics::values_held() const {
  size_t held = 0;
  for (const std::vector<double>& block : blocks_) held += block.capacity();
  return held;
}

bool OrderStatistics::erase(double value) {
  const auto i = static_cast<size_t>(std::lower_bound(maxima_.begin(), maxima_.end(), value) -
                                     maxima_.begin());
  if (i == blocks_.size()) return false;
  std::vector<double>& block = blocks_[i];
  const auto at = std::lower_bound(block.begin(), block.end(), value);
  if (at == block.end() || *at != value) return false;
  block.erase(at);
  --size_;
  ends_stale_ = true;
  if (size_ == 0) {
    mean_ = m2_ = 0;
  } else {  // Welford's update run backwards
    const double n = static_cast<double>(size_);
    const double old_mean = mean_;
    mean_ = (old_mean * (n + 1) - value) / n;
    m2_ = std::max(0.0, m2_ - (value - mean_) * (value - old_mean));
  }
  if (block.empty()) {
    blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
    maxima_.erase(maxima_.begin() + static_cast<std::ptrdiff_t>(i));
  } else {
    maxima_[i] = block.back();
    merge_small(i);
  }
  return true;
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
