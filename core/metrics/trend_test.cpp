#include "core/metrics/trend_test.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/metrics/percentile.h"

namespace lb::metrics {
namespace {

// Var(S) with the correction for tied values: n(n-1)(2n+5)/18 - sum over tie groups of
// t(t-1)(2t+5)/18.
double variance_of_s(const std::vector<double>& values) {
  const auto n = static_cast<double>(values.size());
  double var = n * (n - 1) * (2 * n + 5) / 18.0;
  std::map<double, int> ties;
  for (double v : values) ++ties[v];
  for (const auto& [value, count] : ties) {
    const auto t = static_cast<double>(count);
    if (count > 1) var -= t * (t - 1) * (2 * t + 5) / 18.0;
  }
  return var;
}

}  // namespace

const char* to_string(Trend trend) {
  switch (trend) {
    case Trend::Plateau:
      return "plateau";
    case Trend::DriftingUp:
      return "drifting up";
    case Trend::DriftingDown:
      return "drifting down";
    case Trend::TooFewPoints:
      break;
  }
  return "too few intervals";
}

TrendResult mann_kendall(const std::vector<double>& t, const std::vector<double>& values,
                         double alpha, double effect_floor) {
  TrendResult r;
  r.n = static_cast<int>(std::min(t.size(), values.size()));
  if (r.n < kTrendMinPoints) return r;
  std::vector<double> slopes;
  for (int i = 0; i < r.n; ++i)
    for (int j = i + 1; j < r.n; ++j) {
      const double d = values[j] - values[i];
      r.s += d > 0 ? 1 : d < 0 ? -1 : 0;
      if (t[j] > t[i]) slopes.push_back(d / (t[j] - t[i]));
    }
  const std::vector<double> head(values.begin(), values.begin() + r.n);
  const double var = variance_of_s(head);
  if (var > 0)
    r.z = r.s > 0 ? (r.s - 1) / std::sqrt(var) : r.s < 0 ? (r.s + 1) / std::sqrt(var) : 0;
  r.p = std::erfc(std::abs(r.z) / std::sqrt(2.0));
  r.slope = median(slopes);
  const double level = median(head);
  r.change = level != 0 && std::isfinite(r.slope) ? r.slope * (t[r.n - 1] - t[0]) / level : 0;
  const bool significant = r.p < alpha && std::abs(r.change) >= effect_floor;
  r.trend = !significant ? Trend::Plateau : r.change > 0 ? Trend::DriftingUp : Trend::DriftingDown;
  return r;
}

}  // namespace lb::metrics
