#pragma once
// What a reviewable experiment decided for each candidate lane against the baseline, as
// summary.json records it in the section's "comparisons" list (docs/compare.md): a regression's
// triage counts, flipped facts, token evidence and floor verdict; a sampled regression's per-prompt
// results. The engine fills them and to_json writes them; read tolerantly: a member of another type
// reads as absent (0, NaN, "" or empty), never a throw.
#include <cmath>
#include <cstdint>
#include <map>
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
  std::string test;     // "one-sided Fisher exact test"
  double p_value = NAN;
  double alpha = NAN;  // "above the floor" at p_value < alpha
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

// A prompt of a pair outcome: a flipped fact, or a prompt batch-variant on some lane.
struct PairPrompt {
  int64_t index = -1;  // in the prompt set; -1 when the file did not say
  std::string id;
  std::vector<std::string> lanes;  // batch-variant: the lanes whose answer changed under load
};

// One candidate of a regression against the baseline.
struct PairOutcome {
  std::string baseline;
  std::string candidate;
  int64_t pairs = 0;
  int64_t identical = 0;
  int64_t near_identical = 0;
  int64_t divergent = 0;
  int64_t review_required = 0;                        // pairs the run's triage left for a reviewer
  std::vector<PairPrompt> flipped;                    // pairs whose fact check the candidate lost
  std::map<std::string, int64_t> fact_checks_failed;  // by lane: checks its answers failed
  std::vector<int64_t> failed_requests;  // prompts a lane's request failed on, by index
  int64_t unsupported_by_lane = 0;       // prompts whose media a lane's API refused
  // What a floor verdict counts: prompts both lanes answered, and those whose answers differ;
  // -1 where the file did not say (written before they were recorded).
  int64_t answered_by_both = -1, differing_answers = -1;
  std::string review_outcome;  // the triage's outcome in one line
  std::string review_file;     // review.json, or review.<candidate>.json
  // Prompts batch-variant on either lane (its load baseline); nullopt when neither lane ran one.
  std::optional<std::vector<PairPrompt>> batch_variant;
  std::optional<FloorVerdictRecord> floor_verdict;
  std::optional<TokenEvidenceRecord> tokens;  // when both lanes recorded logprobs
  // The members not above, as written; "token_divergence" (which `tokens` reads) among them.
  nlohmann::json more = nlohmann::json::object();

  int64_t flipped_facts() const { return static_cast<int64_t>(flipped.size()); }
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

// The "comparisons" entry of a pair outcome; to_json(read_pair_outcomes(x)[i]) is x[i] for a list
// this version wrote.
nlohmann::json to_json(const FloorVerdictRecord& verdict);  // without baseline and candidate
nlohmann::json to_json(const PairOutcome& outcome);

}  // namespace lb::record
