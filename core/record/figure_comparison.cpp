#include "core/record/figure_comparison.h"

namespace lb::record {

Comparison comparison_of(const metrics::FigureComparison& f) {
  Comparison c;
  c.baseline = f.baseline;
  c.candidate = f.candidate;
  c.phase = f.phase;
  c.figure = f.figure;
  c.label = f.label;
  c.statement = f.statement;
  c.ratio = f.ratio.ratio;
  c.lo = f.ratio.lo;
  c.hi = f.ratio.hi;
  c.verdict = f.verdict;
  const nlohmann::json needed = f.needed > 0 ? nlohmann::json(f.needed) : nlohmann::json(nullptr);
  c.more = {
      {"better", f.better == metrics::Better::Higher ? "higher" : "lower"},
      {"level", f.ratio.level},
      {"method", f.over_trials ? metrics::kExpandedPercentile : metrics::to_string(f.ratio.method)},
      {"method_name", f.method_name()},
      {"resamples", f.ratio.resamples},
      {"seed", f.seed},
      {"basis", f.basis()},
      {"n_baseline", f.ratio.n_baseline},
      {"n_candidate", f.ratio.n_candidate},
      {"requests_needed", f.over_trials ? nlohmann::json(nullptr) : needed}};
  if (f.over_trials) c.more["trials_needed"] = needed;
  return c;
}

nlohmann::json comparisons_json(const std::vector<metrics::FigureComparison>& comparisons) {
  nlohmann::json out = nlohmann::json::array();
  for (const metrics::FigureComparison& c : comparisons) out.push_back(to_json(comparison_of(c)));
  return out;
}

}  // namespace lb::record
