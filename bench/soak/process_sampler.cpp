#include "process_sampler.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace lb::bench {

ProcessSample sample_process(double t_s) {
  ProcessSample s;
  s.t_s = t_s;
  long pages_total = 0, pages_resident = 0;
  std::ifstream statm("/proc/self/statm");
  if (statm >> pages_total >> pages_resident)
    s.rss_mb = static_cast<double>(pages_resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) /
               (1024.0 * 1024.0);
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
       it != std::filesystem::directory_iterator(); it.increment(ec))
    ++s.open_fds;
  return s;
}

FlatnessFigures flatness(const std::vector<ProcessSample>& samples, double warmup_s, double end_s,
                         double (*value)(const ProcessSample&)) {
  FlatnessFigures f;
  double sum_t = 0, sum_v = 0, sum_tt = 0, sum_tv = 0;
  for (const auto& s : samples) {
    if (s.t_s < warmup_s || s.t_s > end_s) continue;
    const double v = value(s);
    if (f.samples == 0) f.first = v;
    f.last = v;
    f.max = f.samples == 0 ? v : std::max(f.max, v);
    ++f.samples;
    sum_t += s.t_s;
    sum_v += v;
    sum_tt += s.t_s * s.t_s;
    sum_tv += s.t_s * v;
  }
  const double n = f.samples;
  const double denom = n * sum_tt - sum_t * sum_t;
  if (f.samples >= 2 && denom > 0) f.slope_per_min = (n * sum_tv - sum_t * sum_v) / denom * 60.0;
  return f;
}

}  // namespace lb::bench
