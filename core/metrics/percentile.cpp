#include "core/metrics/percentile.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lb::metrics {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

PercentileIndex percentile_index(size_t n, double q) {
  // numpy's "linear" method: virtual index (n - 1) * q/100.
  const double quantile = std::clamp(q, 0.0, 100.0) / 100.0;
  const double virtual_index = static_cast<double>(n - 1) * quantile;
  const double lower_index = std::floor(virtual_index);
  PercentileIndex index;
  index.lo = static_cast<size_t>(std::clamp(lower_index, 0.0, double(n - 1)));
  index.hi = std::min(index.lo + 1, n - 1);
  index.gamma = virtual_index - lower_index;
  return index;
}

double interpolate_percentile(double a, double b, double gamma) {
  // numpy's _lerp interpolates from the upper neighbour when the fraction is >= 0.5 (keeps
  // results monotonic and exact at the ends).
  const double diff = b - a;
  if (gamma >= 0.5) {
    return b - diff * (1.0 - gamma);
  }
  return a + diff * gamma;
}

double percentile_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) {
    return kNaN;
  }
  const PercentileIndex index = percentile_index(sorted.size(), q);
  return interpolate_percentile(sorted[index.lo], sorted[index.hi], index.gamma);
}

double percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return percentile_sorted(values, q);
}

double mean(const std::vector<double>& values) {
  if (values.empty()) {
    return kNaN;
  }
  double sum = 0;
  for (double v : values) {
    sum += v;
  }
  return sum / static_cast<double>(values.size());
}

double median(std::vector<double> values) { return percentile(std::move(values), 50.0); }

double stddev_population(const std::vector<double>& values) {
  if (values.empty()) {
    return kNaN;
  }
  const double m = mean(values);
  double squares = 0;
  for (double v : values) {
    squares += (v - m) * (v - m);
  }
  return std::sqrt(squares / static_cast<double>(values.size()));
}

Distribution describe(std::vector<double> values) {
  Distribution d;
  d.count = values.size();
  if (values.empty()) {
    d.mean = d.median = d.std = d.p50 = d.p90 = d.p95 = d.p99 = d.min = d.max = kNaN;
    return d;
  }
  std::sort(values.begin(), values.end());
  d.mean = mean(values);
  d.std = stddev_population(values);
  d.median = d.p50 = percentile_sorted(values, 50);
  d.p90 = percentile_sorted(values, 90);
  d.p95 = percentile_sorted(values, 95);
  d.p99 = percentile_sorted(values, 99);
  d.min = values.front();
  d.max = values.back();
  return d;
}

}  // namespace lb::metrics
