// Greedy A/A baseline under load: a lane's answers at the regression's concurrency against its
// own answers at the load baseline's concurrency. A prompt whose answer changes is batch-variant:
// the serving numerics moved with the batch, whatever the weights, so the cross-lane review marks
// it and a difference there is not blamed on the configuration under test.
#include <algorithm>
#include <cmath>

#include "core/compare/pair_comparison.h"
#include "core/run/experiments/regression_experiment.h"

namespace lb::run {

std::pair<double, double> wilson_interval_95(int64_t k, int64_t n) {
  if (n <= 0) return {0.0, 0.0};
  constexpr double z = 1.959963984540054;
  const double nn = static_cast<double>(n);
  const double p = static_cast<double>(k) / nn;
  const double denom = 1 + z * z / nn;
  const double centre = (p + z * z / (2 * nn)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / denom;
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

record::LoadBaselineRecord load_baseline_record(const plan::PromptSet& set, const LaneTexts& alone,
                                                const LaneTexts& under_load,
                                                const plan::RegressionExperiment& p,
                                                const std::string& texts_file) {
  const auto pairs =
      compare::compare_lanes(alone.texts, under_load.texts, &set, p.similarity_threshold);
  record::LoadBaselineRecord r;
  int64_t compared = 0;
  for (const auto& pair : pairs) {
    const auto index = static_cast<int64_t>(pair.index);
    // A failed request on either side says nothing about batching.
    if (!alone.errors[pair.index].empty() || !under_load.errors[pair.index].empty()) {
      r.failed_prompts.push_back(index);
      continue;
    }
    ++compared;
    if (pair.triage.triage == compare::TriageClass::Identical) continue;
    r.batch_variant.push_back(
        {index, pair.prompt_id, compare::triage_name(pair.triage.triage), pair.triage.ratio});
  }
  const auto mismatches = static_cast<int64_t>(r.batch_variant.size());
  r.concurrency = static_cast<double>(p.load_baseline_concurrency);
  r.baseline_concurrency = static_cast<double>(std::max<int64_t>(1, p.concurrency));
  r.texts_file = texts_file;
  r.prompts_compared = static_cast<double>(compared);
  r.mismatches = static_cast<double>(mismatches);
  if (compared > 0)
    r.mismatch_rate = static_cast<double>(mismatches) / static_cast<double>(compared);
  r.mismatch_rate_interval = wilson_interval_95(mismatches, compared);
  r.interval_method = "Wilson score, 95 %";
  return r;
}

std::vector<bool> batch_variant_prompts(const record::LoadBaselineRecord& load_baseline,
                                        const plan::PromptSet& set) {
  std::vector<bool> out(set.prompts.size(), false);
  for (const record::BatchVariantPrompt& v : load_baseline.batch_variant)
    if (v.index >= 0 && static_cast<size_t>(v.index) < out.size())
      out[static_cast<size_t>(v.index)] = true;
  return out;
}

}  // namespace lb::run
