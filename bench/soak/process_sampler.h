#pragma once
// What this process holds, sampled from /proc/self while a soak runs, and whether it stayed flat
// after warm-up: first, last and max after warm-up, and the least-squares slope per minute.
#include <cstdint>
#include <vector>

namespace lb::bench {

struct ProcessSample {
  double t_s = 0;  // since the soak started
  double rss_mb = 0;
  int64_t open_fds = 0;
};

ProcessSample sample_process(double t_s);

struct FlatnessFigures {
  int samples = 0;  // after warm-up
  double first = 0, last = 0, max = 0;
  double slope_per_min = 0;  // least squares over the samples after warm-up
};

// Over the samples taken in [warmup_s, end_s] (the steady part: after warm-up, before the
// streams wind down); `value` picks the quantity.
FlatnessFigures flatness(const std::vector<ProcessSample>& samples, double warmup_s, double end_s,
                         double (*value)(const ProcessSample&));

inline double rss_of(const ProcessSample& s) { return s.rss_mb; }
inline double fds_of(const ProcessSample& s) { return static_cast<double>(s.open_fds); }

}  // namespace lb::bench
