// Greedy A/A baseline under load: a lane's answers at the regression's concurrency against its
// own answers at the load baseline's concurrency. A prompt whose answer changes is batch-variant:
// the serving numerics moved with the batch, whatever the weights, so the cross-lane review marks
// it and a difference there is not blamed on the configuration under test.
#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

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

nlohmann::json load_baseline_summary(const plan::PromptSet& set, const LaneTexts& alone,
                                     const LaneTexts& under_load,
                                     const plan::RegressionExperiment& p,
                                     const std::string& texts_file) {
  const auto pairs =
      compare::compare_lanes(alone.texts, under_load.texts, &set, p.similarity_threshold);
  nlohmann::json variant = nlohmann::json::array();
  nlohmann::json failed = nlohmann::json::array();
  int64_t compared = 0;
  for (const auto& pair : pairs) {
    // A failed request on either side says nothing about batching.
    if (!alone.errors[pair.index].empty() || !under_load.errors[pair.index].empty()) {
      failed.push_back(pair.index);
      continue;
    }
    ++compared;
    if (pair.triage.triage == compare::TriageClass::Identical) continue;
    variant.push_back({{"index", pair.index},
                       {"id", pair.prompt_id},
                       {"triage", compare::triage_name(pair.triage.triage)},
                       {"ratio", pair.triage.ratio}});
  }
  const auto mismatches = static_cast<int64_t>(variant.size());
  const auto [lo, hi] = wilson_interval_95(mismatches, compared);
  return {{"concurrency", p.load_baseline_concurrency},
          {"baseline_concurrency", std::max<int64_t>(1, p.concurrency)},
          {"texts_file", texts_file},
          {"prompts_compared", compared},
          {"mismatches", mismatches},
          {"mismatch_rate", compared > 0 ? nlohmann::json(static_cast<double>(mismatches) /
                                                          static_cast<double>(compared))
                                         : nlohmann::json(nullptr)},
          {"mismatch_rate_interval", {lo, hi}},
          {"interval_method", "Wilson score, 95 %"},
          {"batch_variant", std::move(variant)},
          {"failed_prompts", std::move(failed)}};
}

std::vector<bool> batch_variant_prompts(const nlohmann::json& load_baseline,
                                        const plan::PromptSet& set) {
  std::vector<bool> out(set.prompts.size(), false);
  for (const auto& v : load_baseline.value("batch_variant", nlohmann::json::array())) {
    const auto i = v.value("index", size_t{0});
    if (i < out.size()) out[i] = true;
  }
  return out;
}

}  // namespace lb::run
