#pragma once
// What lanebench-bench-gui records of a run, in memory that does not grow with the run's length:
// the gaps between event-loop turns and the GUI thread's CPU in each, kept exactly for the current
// window only and for the whole run in fixed histograms (10 µs buckets up to 2 s; the longest gap
// exactly, with when it ended and its CPU); the drains' cost per window. A bench that kept every
// turn (three numbers, about 300 turns a second) would itself grow about 0.4 MB a minute and
// blur the workbench's own resident memory over an hour.
#include <cstdint>
#include <vector>

namespace lb::bench {

// One window of a long run: what its drains cost the GUI thread.
struct LoopWindow {
  double start_s = 0;
  int drains = 0;
  int64_t records = 0;
  double drain_p50_ms = 0, drain_p99_ms = 0;
  double iteration_p99_ms = 0;
  double rss_mb = 0;  // at the window's end
  // At the window's end, from malloc's own count (all arenas): the bytes the program holds, and
  // the bytes malloc holds free. A resident size that grows while the first stays level is
  // malloc's free space, not the program's data.
  double heap_in_use_mb = 0, heap_free_mb = 0;
};

// The nearest-rank Q-quantile of V (sorted in place); 0 when V is empty.
double nearest_rank(std::vector<double>& v, double q);

// Counts of values in buckets of kBucketMs from 0; values beyond the last bucket count in it.
class FixedHistogram {
 public:
  static constexpr double kBucketMs = 0.01;
  static constexpr size_t kBuckets = 200'000;  // up to 2 s
  FixedHistogram() : counts_(kBuckets, 0) {}
  void add(double ms);
  // The upper edge of the bucket holding the Q-quantile (0 when empty).
  double quantile(double q) const;
  int64_t count() const { return total_; }

 private:
  std::vector<int64_t> counts_;
  int64_t total_ = 0;
};

class LoopRecorder {
 public:
  explicit LoopRecorder(double window_s) : window_s_(window_s) {}
  // One event-loop turn that ended at END_S (since the run's start) after GAP_MS, CPU_MS of it on
  // the GUI thread.
  void add_turn(double end_s, double gap_ms, double cpu_ms);
  void add_drain(double cost_ms, int records);
  // Closes the current window with the memory figures at its end (LoopWindow).
  void close_window(double rss_mb, double heap_in_use_mb, double heap_free_mb);

  const std::vector<LoopWindow>& windows() const { return windows_; }
  const FixedHistogram& gaps() const { return gaps_; }
  const FixedHistogram& cpu() const { return cpu_; }
  double max_gap_ms() const { return max_gap_ms_; }
  double max_gap_end_s() const { return max_gap_end_s_; }
  double max_gap_cpu_ms() const { return max_gap_cpu_ms_; }

 private:
  double window_s_;
  FixedHistogram gaps_, cpu_;
  double max_gap_ms_ = 0, max_gap_end_s_ = 0, max_gap_cpu_ms_ = 0;
  std::vector<double> window_gaps_ms_, window_costs_ms_;
  int64_t window_records_ = 0;
  std::vector<LoopWindow> windows_;
};

}  // namespace lb::bench
