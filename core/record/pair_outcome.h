#pragma once
// What a reviewable experiment decided for each candidate lane against the baseline, as
// summary.json records it in the section's "comparisons" list (docs/compare.md): a regression's
// triage counts, flipped facts, token evidence and floor verdict; a sampled regression's per-prompt
// results. Read tolerantly: a member of another type reads as absent (0, NaN, "" or empty), never a
// throw.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/record/token_evidence.h"

namespace lb::record {

// A candidate's differing answers judged against the baseline's determinism floor.
struct FloorVerdictRecord {
  std::string baseline;
  std::string candidate;
  std::string verdict;  // "above the floor", "within the floor", "not judged"
  std::string text;     // the whole finding in one line
  double p_value = NAN;
  // The candidate's answers differing from the baseline's, and the baseline's own flips; NaN
  // where the file did not say.
  double differing = NAN, compared = NAN;
  double floor_flips = NAN, floor_compared = NAN;
};

// The candidate's answers read by the baseline under teacher forcing, against the plan's least
// top-1 agreement ("token_divergence"."cross_score").
struct CrossScoreRecord {
  double min_top1_agreement = NAN;  // NaN (or negative) when the plan set no bar
  std::string status;               // of the candidate-under-baseline reading: "ok", ...
  double top1_agreement = NAN;      // NaN when the reading gave none
  std::string reason;               // why it gave none
  bool has_bar() const { return std::isfinite(min_top1_agreement) && min_top1_agreement >= 0; }
};

// Token-level evidence of a pair of lanes ("token_divergence"), as far as a verdict needs it.
struct TokenEvidenceRecord {
  // The prompt index of each confident change (a token the baseline did not expect), in the
  // file's order; -1 where the file did not say.
  std::vector<int64_t> confident_changes;
  std::optional<CrossScoreRecord> cross_score;
  TokenFidelityDetail detail;  // counts, each confident change, each cross-score direction
};

// One candidate of a regression against the baseline.
struct PairOutcome {
  std::string baseline;
  std::string candidate;
  int64_t pairs = 0;
  int64_t identical = 0;
  int64_t near_identical = 0;
  int64_t divergent = 0;
  int64_t review_required = 0;      // pairs the run's triage left for a reviewer
  int64_t flipped_facts = 0;        // pairs whose fact check the candidate lost
  int64_t unsupported_by_lane = 0;  // prompts whose media a lane's API refused
  std::string review_outcome;       // the triage's outcome in one line
  std::optional<FloorVerdictRecord> floor_verdict;
  std::optional<TokenEvidenceRecord> tokens;  // when both lanes recorded logprobs
};

// A similarity distribution of a sampled prompt (difflib ratios of sample pairs).
struct SimilaritySpread {
  int64_t n = 0;  // pairs behind it; 0: none
  double median = NAN, q1 = NAN, q3 = NAN;
};

// A lane's samples of one prompt that failed a fact check, with the rate's Wilson interval.
struct FactLossRecord {
  int64_t lost = 0;
  int64_t samples = 0;
  double lo = NAN, hi = NAN;
};

// One prompt of a sampled regression: within- and cross-lane similarity, the permutation test's
// result and each lane's fact loss.
struct SampledPromptOutcome {
  int64_t index = -1;  // in the prompt set; -1 when not recorded
  std::string id;
  std::string result;  // "shifted", "indistinguishable", "untested"
  double q_value = NAN;
  std::optional<SimilaritySpread> within_baseline, within_candidate, cross;
  std::optional<FactLossRecord> fact_lost_baseline, fact_lost_candidate;  // with fact checks
};

// One candidate of a sampled regression against the baseline.
struct SampledOutcome {
  std::string baseline;
  std::string candidate;
  int64_t prompts = 0;  // prompts tested
  int64_t shifted = 0;
  int64_t indistinguishable = 0;
  double samples_per_prompt = NAN;               // per lane (the experiment's "samples")
  double permutations = NAN;                     // of the test, per prompt
  double fdr = NAN;                              // Benjamini-Hochberg false discovery rate
  std::vector<SampledPromptOutcome> per_prompt;  // in the file's order; non-objects left out
};

// A regression section's "comparisons" list, and a sampled regression's; entries that are not
// objects are left out.
std::vector<PairOutcome> read_pair_outcomes(const nlohmann::json& comparisons);
std::vector<SampledOutcome> read_sampled_outcomes(const nlohmann::json& comparisons);

}  // namespace lb::record
