#pragma once
// The sampled review: several sampled answers per prompt from two lanes. A lane's samples differ
// from each other, so the baseline for "did the candidate change?" is the lane against itself:
// the within-lane similarity distributions (pairs of A's samples, pairs of B's) against the
// cross-lane one (A vs B), all with the difflib ratio of similarity.h. Per prompt a permutation
// test asks whether cross-lane similarity is lower than within-lane; Benjamini–Hochberg across
// prompts keeps the false discovery rate at `fdr`. The prompt's fact checks run on every sample,
// giving each lane's fact-loss rate with a Wilson interval.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/compare/proportion_interval.h"
#include "core/compare/similarity_significance.h"
#include "core/plan/prompt_set.h"

namespace lb::compare {

struct SampledReviewOptions {
  int permutations = 1999;
  uint64_t seed = 20261202;  // fixed, so a result can be reproduced
  double fdr = 0.05;         // Benjamini–Hochberg false discovery rate
  double confidence = 0.95;  // of the fact-loss intervals
  unsigned threads = 0;      // 0 = one per core
};

// One lane's samples of one prompt. failed[k] marks a sample whose request failed: it is
// kept in place (so indices match the texts file) and left out of every statistic.
struct PromptSamples {
  std::vector<std::string> texts;
  std::vector<bool> failed;  // empty = none failed
  bool ok(size_t k) const { return failed.empty() || !failed[k]; }
};

struct SamplePair {
  uint32_t i = 0;  // sample index in the first lane (A for cross pairs)
  uint32_t j = 0;  // sample index in the second lane (B for cross pairs)
  double ratio = 0;
};

enum class SampledResult { Indistinguishable, Shifted, Untested };
const char* sampled_result_name(SampledResult r);  // "indistinguishable", "shifted", "untested"

struct SampledPrompt {
  size_t index = 0;
  std::string prompt_id;
  int64_t samples_a = 0, samples_b = 0;  // samples that did not fail
  std::vector<SamplePair> within_a, within_b, cross;
  PermutationResult test;
  double q_value = 1;  // Benjamini–Hochberg adjusted p-value
  SampledResult result = SampledResult::Untested;
  std::string why_untested;
  bool has_checks = false;
  std::vector<bool> lost_a, lost_b;  // per sample: a fact check did not pass
  Proportion fact_lost_a, fact_lost_b;
};

struct SampledComparison {
  std::string lane_a, lane_b;
  std::string prompt_set;
  SampledReviewOptions options;
  std::vector<SampledPrompt> prompts;
  int64_t count(SampledResult r) const;
};

// a[p] and b[p] are the lanes' samples of prompt p; prompts may be null (no fact checks) or
// must have as many prompts as a and b.
SampledComparison compare_samples(std::string lane_a, std::string lane_b,
                                  const std::vector<PromptSamples>& a,
                                  const std::vector<PromptSamples>& b,
                                  const plan::PromptSet* prompts,
                                  const SampledReviewOptions& options = {});

// Median, quartiles and extremes of a distribution's ratios: {n, min, q1, median, q3, max}.
nlohmann::json distribution_summary(const std::vector<SamplePair>& pairs);
// "fact lost in 3/16 fp8 samples vs 0/16 bf16"; "" when the prompt has no checks.
std::string fact_loss_text(const SampledPrompt& p, const std::string& lane_a,
                           const std::string& lane_b);
// Everything, every pair's ratio included (sampled.json).
nlohmann::json sampled_to_json(const SampledComparison& c);
// Without the pairs (summary.json): the summaries, test, result and fact-loss rates.
nlohmann::json sampled_summary_json(const SampledComparison& c);

}  // namespace lb::compare
