#include "core/compare/floor_verdict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lb::compare {
namespace {

double log_choose(int64_t n, int64_t k) {
  return std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(k) + 1) -
         std::lgamma(static_cast<double>(n - k) + 1);
}

}  // namespace

double fisher_exact_greater(int64_t a, int64_t n1, int64_t b, int64_t n2) {
  if (a <= 0 || n1 <= 0 || n2 < 0 || a > n1 || b < 0 || b > n2) return 1.0;
  const int64_t k = a + b;  // answers that differ, in both rows
  const int64_t n = n1 + n2;
  const double log_total = log_choose(n, k);
  double p = 0;
  for (int64_t x = a; x <= std::min(k, n1); ++x) {
    if (k - x > n2) continue;
    p += std::exp(log_choose(n1, x) + log_choose(n2, k - x) - log_total);
  }
  return std::clamp(p, 0.0, 1.0);
}

FloorVerdict judge_against_floor(int64_t differing, int64_t compared, int64_t floor_flips,
                                 int64_t floor_compared, double alpha) {
  FloorVerdict v;
  v.differing = differing;
  v.compared = compared;
  v.floor_flips = floor_flips;
  v.floor_compared = floor_compared;
  v.alpha = alpha;
  v.judged = compared > 0 && floor_compared > 0 && differing >= 0 && differing <= compared &&
             floor_flips >= 0 && floor_flips <= floor_compared;
  v.p_value = fisher_exact_greater(differing, compared, floor_flips, floor_compared);
  v.above = v.judged && v.p_value < alpha;
  return v;
}

const char* verdict_name(const FloorVerdict& v) {
  if (!v.judged) return "not judged";
  return v.above ? "above the floor" : "within the floor";
}

std::string verdict_text(const FloorVerdict& v) {
  if (!v.judged)
    return "not judged: " + std::to_string(v.compared) + " answers both lanes gave, against " +
           std::to_string(v.floor_compared) + " the floor compared";
  char p[32];
  std::snprintf(p, sizeof p, v.p_value < 0.001 ? "%.1e" : "%.3g", v.p_value);
  return std::string(verdict_name(v)) + ": " + std::to_string(v.differing) + " of " +
         std::to_string(v.compared) + " answers differ against " + std::to_string(v.floor_flips) +
         " of " + std::to_string(v.floor_compared) + " on the baseline alone (" + v.test +
         ", p = " + p + ")";
}

nlohmann::json to_json(const FloorVerdict& v) {
  return {{"verdict", verdict_name(v)},
          {"text", verdict_text(v)},
          {"differing", v.differing},
          {"compared", v.compared},
          {"floor_flips", v.floor_flips},
          {"floor_compared", v.floor_compared},
          {"test", v.test},
          {"p_value", v.p_value},
          {"alpha", v.alpha}};
}

}  // namespace lb::compare
