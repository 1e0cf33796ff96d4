// bench_bootstrap: bootstrap intervals of one lane's requests, 100,000 values x 2,000 resamples
// by default, for the statistics a summary uses (median, p99), for a mean, and for the ratio of
// two lanes' medians; and, for comparison, the median's percentile interval computed by drawing
// every resample (n indices, then nth_element), what the constant-time resampling replaces. Each
// figure is the median of the runs (at most 3 for the drawn resamples), in thread CPU time and
// wall time.
//
//   build/bench/metrics/bench_bootstrap [--runs N] [--values N] [--resamples N] [--json]
//
// Prints a Markdown table (the figures in docs/benchmarks.md, section "Bootstrap intervals").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/bootstrap.h"
#include "core/metrics/summary_intervals.h"

namespace {

using lb::metrics::BootstrapMethod;
using lb::metrics::BootstrapOptions;
using lb::metrics::BootstrapStatistic;
using Clock = std::chrono::steady_clock;

struct Settings {
  int runs = 5;
  size_t values = 100'000;
  int resamples = 2000;
  bool json = false;
};

struct Timing {
  std::string workload;
  double cpu_ms = 0;
  double wall_ms = 0;
  double width = 0;  // the last run's interval width, so the work cannot be optimised away
};

// CPU time of this thread: on a shared machine wall time also measures the neighbours.
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * static_cast<double>(ts.tv_sec) + 1e-6 * static_cast<double>(ts.tv_nsec);
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// TTFT-like values: log-normal around 120 ms.
std::vector<double> latencies(uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> dist(std::log(120.0), 0.3);
  std::vector<double> v(n);
  for (double& x : v) x = dist(rng);
  return v;
}

Timing time_runs(const std::string& workload, int runs, const std::function<double()>& fn) {
  std::vector<double> cpu, wall;
  Timing t{workload};
  for (int r = 0; r < runs; ++r) {
    const double c0 = thread_cpu_ms();
    const auto w0 = Clock::now();
    t.width = fn();
    wall.push_back(std::chrono::duration<double, std::milli>(Clock::now() - w0).count());
    cpu.push_back(thread_cpu_ms() - c0);
  }
  t.cpu_ms = median_of(cpu);
  t.wall_ms = median_of(wall);
  return t;
}

// The median's 95 % percentile interval with every resample drawn value by value.
double drawn_median_width(const std::vector<double>& values, int resamples) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<size_t> pick(0, values.size() - 1);
  std::vector<double> resample(values.size()), reps;
  for (int b = 0; b < resamples; ++b) {
    for (double& x : resample) x = values[pick(rng)];
    const auto mid = resample.begin() + static_cast<std::ptrdiff_t>(resample.size() / 2);
    std::nth_element(resample.begin(), mid, resample.end());
    reps.push_back(*mid);
  }
  std::sort(reps.begin(), reps.end());
  return reps[size_t(0.975 * double(reps.size() - 1))] -
         reps[size_t(0.025 * double(reps.size() - 1))];
}

std::vector<Timing> run_all(const Settings& s) {
  const std::vector<double> a = latencies(1, s.values), b = latencies(2, s.values);
  auto options = [&](BootstrapMethod method) {
    BootstrapOptions o;
    o.resamples = s.resamples;
    o.method = method;
    return o;
  };
  auto interval = [&](BootstrapStatistic statistic, BootstrapMethod method) {
    return [&, statistic, method] {
      const auto i = lb::metrics::bootstrap_interval(a, statistic, options(method));
      return i.hi - i.lo;
    };
  };
  std::vector<Timing> out;
  out.push_back(time_runs("median, BCa", s.runs,
                          interval(BootstrapStatistic::median(), BootstrapMethod::Bca)));
  out.push_back(time_runs("median, percentile", s.runs,
                          interval(BootstrapStatistic::median(), BootstrapMethod::Percentile)));
  out.push_back(time_runs("p99, BCa", s.runs,
                          interval(BootstrapStatistic::percentile(99), BootstrapMethod::Bca)));
  out.push_back(time_runs("ratio of two lanes' medians, BCa", s.runs, [&] {
    const auto r = lb::metrics::bootstrap_ratio(a, b, BootstrapStatistic::median(),
                                                options(BootstrapMethod::Bca));
    return r.hi - r.lo;
  }));
  out.push_back(
      time_runs("mean, BCa", s.runs, interval(BootstrapStatistic::mean(), BootstrapMethod::Bca)));
  // What summary.json computes for one phase of that many requests: every headline figure's
  // interval (TTFT p50 and p99, TPOT p50, E2EL p50 and p99, decode p50), BCa.
  lb::metrics::RequestSamples phase;
  phase.ttft_ms = a;
  phase.tpot_ms = latencies(3, s.values);
  phase.e2el_ms = latencies(4, s.values);
  phase.decode_tok_s = latencies(5, s.values);
  out.push_back(time_runs("a phase's six headline intervals (summary.json), BCa", s.runs, [&] {
    const auto intervals = lb::metrics::headline_intervals(phase, options(BootstrapMethod::Bca));
    return intervals.front().second.hi - intervals.front().second.lo;
  }));
  out.push_back(time_runs("median, percentile, every resample drawn (reference)",
                          std::min(s.runs, 3), [&] { return drawn_median_width(a, s.resamples); }));
  return out;
}

bool parse(int argc, char** argv, Settings& s) {
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--runs") && has_value) {
      s.runs = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--values") && has_value) {
      s.values = static_cast<size_t>(std::max(2, std::atoi(argv[++i])));
    } else if (!std::strcmp(argv[i], "--resamples") && has_value) {
      s.resamples = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--json")) {
      s.json = true;
    } else {
      std::fprintf(stderr, "usage: %s [--runs N] [--values N] [--resamples N] [--json]\n", argv[0]);
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  if (!parse(argc, argv, s)) return 2;
  const std::vector<Timing> timings = run_all(s);
  if (s.json) {
    nlohmann::json j = {{"values", s.values}, {"resamples", s.resamples}, {"runs", s.runs}};
    for (const Timing& t : timings)
      j["timings"].push_back({{"workload", t.workload},
                              {"cpu_ms", t.cpu_ms},
                              {"wall_ms", t.wall_ms},
                              {"interval_width", t.width}});
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
  }
  std::printf("%zu values x %d resamples, median of %d runs\n\n", s.values, s.resamples, s.runs);
  std::printf("| workload | CPU ms | wall ms | interval width |\n|---|---:|---:|---:|\n");
  for (const Timing& t : timings)
    std::printf("| %s | %.1f | %.1f | %.4g |\n", t.workload.c_str(), t.cpu_ms, t.wall_ms, t.width);
  return 0;
}
