#include "loop_recorder.h"

#include <algorithm>
#include <cmath>

namespace lb::bench {

double nearest_rank(std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto i = static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

void FixedHistogram::add(double ms) {
  const double bucket = std::floor(std::max(ms, 0.0) / kBucketMs);
  const auto i =
      bucket >= static_cast<double>(kBuckets) ? kBuckets - 1 : static_cast<size_t>(bucket);
  ++counts_[i];
  ++total_;
}

double FixedHistogram::quantile(double q) const {
  if (total_ == 0) return 0;
  const auto rank = static_cast<int64_t>(q * static_cast<double>(total_ - 1) + 0.5);
  int64_t seen = 0;
  for (size_t i = 0; i < kBuckets; ++i) {
    seen += counts_[i];
    if (seen > rank) return static_cast<double>(i + 1) * kBucketMs;
  }
  return static_cast<double>(kBuckets) * kBucketMs;
}

void LoopRecorder::add_turn(double end_s, double gap_ms, double cpu_ms) {
  gaps_.add(gap_ms);
  cpu_.add(cpu_ms);
  window_gaps_ms_.push_back(gap_ms);
  if (gap_ms > max_gap_ms_) {
    max_gap_ms_ = gap_ms;
    max_gap_end_s_ = end_s;
    max_gap_cpu_ms_ = cpu_ms;
  }
}

void LoopRecorder::add_drain(double cost_ms, int records) {
  window_costs_ms_.push_back(cost_ms);
  window_records_ += records;
}

void LoopRecorder::close_window(double rss_mb, double heap_in_use_mb, double heap_free_mb) {
  LoopWindow w;
  w.start_s = static_cast<double>(windows_.size()) * window_s_;
  w.drains = static_cast<int>(window_costs_ms_.size());
  w.records = window_records_;
  w.drain_p50_ms = nearest_rank(window_costs_ms_, 0.5);
  w.drain_p99_ms = nearest_rank(window_costs_ms_, 0.99);
  w.iteration_p99_ms = nearest_rank(window_gaps_ms_, 0.99);
  w.rss_mb = rss_mb;
  w.heap_in_use_mb = heap_in_use_mb;
  w.heap_free_mb = heap_free_mb;
  windows_.push_back(w);
  // clear() keeps the capacity: the next window reuses this one's memory.
  window_gaps_ms_.clear();
  window_costs_ms_.clear();
  window_records_ = 0;
}

}  // namespace lb::bench
