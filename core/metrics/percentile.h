#pragma once
// Descriptive statistics matching numpy: percentile with linear interpolation (numpy's default
// method), mean, median, and the population standard deviation (numpy.std with ddof=0, which is
// what vLLM's bench serve reports). Empty input gives NaN (serialised as null), never 0.
#include <cstddef>
#include <vector>

namespace lb::metrics {

// Where percentile q of n sorted values lies (numpy's "linear" method): between the values at
// ranks lo and hi (0-based), gamma of the way from lo.
struct PercentileIndex {
  size_t lo = 0, hi = 0;
  double gamma = 0;
};
PercentileIndex percentile_index(size_t n, double q);  // n > 0
// numpy's _lerp of the values at ranks lo and hi.
double interpolate_percentile(double at_lo, double at_hi, double gamma);

// q in [0, 100]. `values` need not be sorted.
double percentile(std::vector<double> values, double q);
// Same on data already sorted ascending (no copy).
double percentile_sorted(const std::vector<double>& sorted, double q);
double mean(const std::vector<double>& values);
double median(std::vector<double> values);
double stddev_population(const std::vector<double>& values);

struct Distribution {
  size_t count = 0;
  double mean = 0, median = 0, std = 0;
  double p50 = 0, p90 = 0, p95 = 0, p99 = 0;
  double min = 0, max = 0;
};
// All NaN when `values` is empty.
Distribution describe(std::vector<double> values);

}  // namespace lb::metrics
