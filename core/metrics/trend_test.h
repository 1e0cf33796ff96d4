#pragma once
// Whether a figure drifts over time: the Mann-Kendall trend test on a series of per-interval
// values, with Sen's slope for the size of the drift (docs/metrics.md, "Steady state"). A drift
// is called only when the test rejects "no trend" at the 5 % level and the change across the
// series is at least the effect floor (5 % of its median): a significant but tiny slope is a
// plateau.
#include <string>
#include <vector>

namespace lb::metrics {

enum class Trend { Plateau, DriftingUp, DriftingDown, TooFewPoints };
const char* to_string(
    Trend trend);  // "plateau", "drifting up", "drifting down", "too few intervals"

struct TrendResult {
  Trend trend = Trend::TooFewPoints;
  int n = 0;          // points tested
  double s = 0;       // Mann-Kendall S
  double z = 0;       // its normal score (continuity-corrected, ties accounted for)
  double p = 1;       // two-sided p-value
  double slope = 0;   // Sen's slope: the median of the pairwise slopes, per unit of t
  double change = 0;  // slope x (last t - first t) / median value: the relative drift
};

constexpr int kTrendMinPoints = 4;
// T and VALUES of equal length, T increasing. Fewer than kTrendMinPoints points: TooFewPoints.
TrendResult mann_kendall(const std::vector<double>& t, const std::vector<double>& values,
                         double alpha = 0.05, double effect_floor = 0.05);

}  // namespace lb::metrics
