#pragma once
// Regression: every prompt of a prompt set, greedy (temperature 0), streamed, on every lane.
// Outputs are saved in prompt order as texts/<lane>.texts.json; then the first lane (the
// baseline) is compared with each other lane prompt by prompt, and review.json is started.
#include <optional>
#include <string>
#include <vector>

#include "core/logprobs/logprob_lines.h"
#include "core/plan/plan.h"
#include "core/plan/prompt_set.h"
#include "core/record/determinism_floor.h"
#include "core/record/load_baseline_record.h"
#include "core/record/pair_outcome.h"
#include "core/run/experiments/experiment.h"
#include "core/run/lanes/tokenizer_match.h"

namespace lb::run {

class RegressionExperiment : public Experiment {
 public:
  void run(ExperimentContext& ctx) override;
};

// Texts of one lane in prompt order ("" where the request failed) and which ones failed.
struct LaneTexts {
  std::vector<std::string> texts;
  std::vector<std::string> errors;  // "" where the request succeeded
  // Per prompt: the lane's API refused the prompt's images or videos (gate_checks.h
  // says_media_unsupported), so its empty answer is no answer to compare.
  std::vector<bool> media_refused;
  // Per prompt, when logprobs were asked for (empty otherwise): logprobs/<lane>.jsonl.
  std::vector<logprobs::PromptLogprobs> logprobs;
  // Per prompt, when the regression has a load baseline (empty otherwise): the lane's own answer
  // changed under load (regression_load_baseline.cpp).
  std::vector<bool> batch_variant;
};

// The lane's answers at the regression's concurrency against its answers at the load baseline's
// concurrency, compared exactly as two lanes are: the lane's load baseline
// (lanes.<id>.load_baseline) with counts, the mismatch rate and its 95 % Wilson interval, and each
// batch-variant prompt.
record::LoadBaselineRecord load_baseline_record(const plan::PromptSet& set, const LaneTexts& alone,
                                                const LaneTexts& under_load,
                                                const plan::RegressionExperiment& p,
                                                const std::string& texts_file);
// Per prompt: listed as batch-variant in a load baseline.
std::vector<bool> batch_variant_prompts(const record::LoadBaselineRecord& load_baseline,
                                        const plan::PromptSet& set);
// 95 % Wilson score interval of k successes in n trials ({0, 0} when n is 0).
std::pair<double, double> wilson_interval_95(int64_t k, int64_t n);

// Each prompt's logprobs in prompt order. `unsupported` (non-empty) marks every prompt
// "unsupported" with that note; a prompt whose answer carried no logprobs is "unsupported" too.
std::vector<logprobs::PromptLogprobs> logprobs_in_prompt_order(
    const std::vector<metrics::RequestRecord>& records, const plan::PromptSet& set, int top_k,
    const std::string& unsupported);
// A 400 whose message mentions logprobs: the server refuses them (message set).
bool refused_logprobs(const std::vector<metrics::RequestRecord>& records, std::string& message);

// The experiment's prompt set, its name and size recorded in the section; nullopt (the error
// told and recorded) when it cannot be loaded.
std::optional<plan::PromptSet> load_experiment_prompts(ExperimentContext& ctx,
                                                       const std::string& ref);

// One pass of a prompt set over a lane's chat completions, every prompt once, in order.
struct PromptPass {
  std::string phase;
  int64_t concurrency = 1;
  int64_t max_tokens = 256;  // caps each prompt's own max_tokens
  double temperature = 0;
  int64_t top_logprobs = 0;  // 0 = no logprobs
};
// The phase of that pass (the set must outlive it).
LoadPhase prompt_set_phase(const ExperimentContext& ctx, const LaneRuntime& lane,
                           const plan::PromptSet& set, const PromptPass& pass);

LaneTexts texts_in_prompt_order(const std::vector<metrics::RequestRecord>& records,
                                size_t prompt_count);

// Triage of each lane against the first: fills section["comparisons"], writes review.json
// (review.<lane>.json with more than one candidate) and flags flipped facts as blockers.
// `cross` (when not null) holds each candidate's cross-scores as JSON, in candidate order:
// {"totals": {...}, "per_prompt": [...]}; they go into tokens.json and the summary.
// `tokenizers` (when not null) says per candidate, in candidate order, whether its tokenizer is
// the baseline's (core/run/lanes/tokenizer_match.h); it goes into tokens.json and the summary, and
// where they differ every non-identical pair is compared by text.
// Returns the candidates' outcomes, in candidate order, as written.
std::vector<record::PairOutcome> triage_lane_pairs(
    ExperimentContext& ctx, const plan::PromptSet& set,
    const std::vector<std::pair<std::string, LaneTexts>>& lanes, double similarity_threshold,
    double near_tie_margin_nats = 0.5, int top_k = 0,
    const std::vector<nlohmann::json>* cross = nullptr,
    const std::vector<TokenizerMatch>* tokenizers = nullptr);

// The outcomes as the section's "comparisons" list.
void write_pair_outcomes(ExperimentContext& ctx, const std::vector<record::PairOutcome>& outcomes);

// Each outcome's differing answers against the baseline's FLOOR: its floor verdict, told to the
// sink, and the section's list written again. Nothing when the floor compared nothing.
void judge_regression_floor(ExperimentContext& ctx, const record::DeterminismFloor& floor,
                            std::vector<record::PairOutcome>& outcomes);

// A merged run's regression (core/fleet): each lane's answers, errors, refused media, logprobs
// and load baseline read back from RUN_DIR (texts/, logprobs/ and the lanes' sections that the
// shards wrote), then judged pair by pair as one process judges them. Cross-scoring needs both
// lanes' servers at once and is not done; section["cross_score"] says so when it was asked for.
void triage_merged_regression(ExperimentContext& ctx, const std::string& run_dir);
// The same for a run folder on its own: PLAN (its sweep expanded) names the lanes, SPEC is the
// regression, SECTION its merged section (comparisons and floor verdicts are added to it).
// Returns the blockers (flipped facts); warnings go to NOTES.
std::vector<std::string> judge_merged_regression(const plan::Plan& plan,
                                                 const plan::Experiment& spec,
                                                 const std::string& run_dir,
                                                 nlohmann::json& section,
                                                 std::vector<std::string>& notes);

}  // namespace lb::run
