#include <nlohmann/json.hpp>

#include "core/compare/pair_comparison.h"
#include "core/compare/review_record.h"
#include "core/compare/token_divergence.h"
#include "core/record/pair_outcome.h"
#include "core/run/experiments/regression_experiment.h"

namespace lb::run {
namespace {

int failed_checks(const std::vector<compare::CheckResult>& checks) {
  int n = 0;
  for (const auto& c : checks) n += c.status == compare::CheckStatus::Pass ? 0 : 1;
  return n;
}

record::PairOutcome pair_outcome(const std::string& base, const std::string& cand,
                                 const std::vector<compare::PairComparison>& pairs,
                                 const LaneTexts& base_texts, const LaneTexts& cand_texts,
                                 const compare::ReviewRecord& review) {
  record::PairOutcome out;
  out.baseline = base;
  out.candidate = cand;
  out.pairs = static_cast<int64_t>(pairs.size());
  out.answered_by_both = out.differing_answers = 0;  // what a floor verdict counts
  int64_t& failed_base = out.fact_checks_failed[base];
  int64_t& failed_cand = out.fact_checks_failed[cand];
  for (const auto& p : pairs) {
    out.identical += p.triage.triage == compare::TriageClass::Identical ? 1 : 0;
    out.near_identical += p.triage.triage == compare::TriageClass::NearIdentical ? 1 : 0;
    out.divergent += p.triage.triage == compare::TriageClass::Divergent ? 1 : 0;
    out.review_required += p.review_required() ? 1 : 0;
    out.unsupported_by_lane += p.unsupported() ? 1 : 0;
    failed_base += failed_checks(p.checks_a);
    failed_cand += failed_checks(p.checks_b);
    const auto index = static_cast<int64_t>(p.index);
    if (p.blocker_candidate()) out.flipped.push_back({index, p.prompt_id, {}});
    if (!base_texts.errors[p.index].empty() || !cand_texts.errors[p.index].empty()) {
      out.failed_requests.push_back(index);
    } else if (!p.unsupported()) {
      ++out.answered_by_both;
      out.differing_answers += p.triage.triage != compare::TriageClass::Identical ? 1 : 0;
    }
  }
  out.review_outcome = review.outcome().summary;
  return out;
}

// Token-level evidence for each pair, when both lanes recorded logprobs: written next to the
// review file as tokens.json (tokens.<lane>.json with more than one candidate).
nlohmann::json token_evidence(ExperimentContext& ctx, const LaneTexts& base, const LaneTexts& cand,
                              const std::string& cand_id, bool several,
                              const compare::DivergenceThresholds& th, const nlohmann::json* cross,
                              const TokenizerMatch* tokenizers) {
  if (base.logprobs.empty() || cand.logprobs.empty()) return nullptr;
  const std::string differ = tokenizers && tokenizers->state == TokenizerMatch::State::Different
                                 ? tokenizers->reason
                                 : std::string();
  std::vector<compare::TokenDivergence> pairs;
  for (size_t i = 0; i < base.texts.size(); ++i) {
    const auto* a = i < base.logprobs.size() ? &base.logprobs[i] : nullptr;
    const auto* b = i < cand.logprobs.size() ? &cand.logprobs[i] : nullptr;
    const std::string& tb = i < cand.texts.size() ? cand.texts[i] : base.texts[i];
    auto d = compare::analyse_token_divergence(a, b, base.texts[i], tb, th, differ);
    d.prompt_index = static_cast<int64_t>(i);
    if (a) d.prompt_id = a->prompt_id;
    pairs.push_back(std::move(d));
  }
  const std::string file = several ? "tokens." + cand_id + ".json" : "tokens.json";
  nlohmann::json report = compare::divergence_report(pairs, th);
  if (tokenizers)
    report["tokenizers"] = {{"match", to_string(tokenizers->state)},
                            {"reason", tokenizers->reason}};
  if (cross) {
    // Each pair's cross-scores beside its divergence; the totals at the top.
    report["cross_score"] = (*cross)["totals"];
    for (const auto& entry : (*cross)["per_prompt"]) {
      const size_t i = entry.value("index", size_t(0));
      if (i < report["pairs"].size()) {
        nlohmann::json both = entry;
        both.erase("index");
        both.erase("id");
        report["pairs"][i]["cross_score"] = std::move(both);
      }
    }
  }
  // The confident changes travel in the summary too: the report lists them and the gate table
  // asks for each one's review verdict.
  nlohmann::json confident = nlohmann::json::array();
  for (const auto& p : report["pairs"])
    if (p.value("class", "") == "confident_change") {
      confident.push_back(p);
      confident.back().erase("cross_score");  // the summary keeps the totals only
    }
  ctx.writer().write_json(file, report);
  nlohmann::json out = {{"file", file},
                        {"near_tie_margin_nats", th.near_tie_margin_nats},
                        {"top_k", th.top_k},
                        {"counts", compare::divergence_counts(pairs)},
                        {"confident_changes", std::move(confident)}};
  if (cross) out["cross_score"] = (*cross)["totals"];
  if (report.contains("tokenizers")) out["tokenizers"] = report["tokenizers"];
  return out;
}

// Marks each pair whose prompt is batch-variant on either lane (its load baseline) and lists
// them for the summary.
std::vector<record::PairPrompt> mark_batch_variant(compare::ReviewRecord& review,
                                                   const std::string& base_id,
                                                   const LaneTexts& base,
                                                   const std::string& cand_id,
                                                   const LaneTexts& cand) {
  std::vector<record::PairPrompt> marked;
  for (auto& pair : review.pairs) {
    const size_t i = pair.comparison.index;
    if (i < base.batch_variant.size() && base.batch_variant[i])
      pair.batch_variant.push_back(base_id);
    if (i < cand.batch_variant.size() && cand.batch_variant[i])
      pair.batch_variant.push_back(cand_id);
    if (!pair.batch_variant.empty())
      marked.push_back({static_cast<int64_t>(i), pair.comparison.prompt_id, pair.batch_variant});
  }
  return marked;
}

// A prompt whose media a lane's API refused has no answer from that lane to compare: the pair is
// "unsupported by the lane", never a divergence or a flipped fact.
void mark_media_refused(std::vector<compare::PairComparison>& pairs, const std::string& base_id,
                        const LaneTexts& base, const std::string& cand_id, const LaneTexts& cand) {
  for (auto& pair : pairs) {
    const size_t i = pair.index;
    if (i < base.media_refused.size() && base.media_refused[i])
      pair.unsupported_by.push_back(base_id);
    if (i < cand.media_refused.size() && cand.media_refused[i])
      pair.unsupported_by.push_back(cand_id);
  }
}

}  // namespace

// The first lane is the baseline; each other lane is compared with it prompt by prompt. A
// flipped fact (a check the baseline passes and the candidate fails) is a blocker candidate:
// the run reports it and exits 1 until a reviewer says otherwise.
std::vector<record::PairOutcome> triage_lane_pairs(
    ExperimentContext& ctx, const plan::PromptSet& set,
    const std::vector<std::pair<std::string, LaneTexts>>& lanes, double similarity_threshold,
    double near_tie_margin_nats, int top_k, const std::vector<nlohmann::json>* cross,
    const std::vector<TokenizerMatch>* tokenizers) {
  const compare::DivergenceThresholds th{near_tie_margin_nats, top_k};
  const auto& [base_id, base] = lanes.front();
  std::vector<record::PairOutcome> outcomes;
  for (size_t i = 1; i < lanes.size(); ++i) {
    const auto& [cand_id, cand] = lanes[i];
    auto pairs = compare::compare_lanes(base.texts, cand.texts, &set, similarity_threshold);
    mark_media_refused(pairs, base_id, base, cand_id, cand);
    auto review = compare::make_review(base_id, cand_id, set.name, similarity_threshold, pairs);
    record::PairOutcome outcome = pair_outcome(base_id, cand_id, pairs, base, cand, review);
    outcome.review_file = lanes.size() == 2 ? "review.json" : "review." + cand_id + ".json";
    if (!base.batch_variant.empty() || !cand.batch_variant.empty())
      outcome.batch_variant = mark_batch_variant(review, base_id, base, cand_id, cand);
    if (auto tokens = token_evidence(
            ctx, base, cand, cand_id, lanes.size() > 2, th,
            cross && i - 1 < cross->size() ? &(*cross)[i - 1] : nullptr,
            tokenizers && i - 1 < tokenizers->size() ? &(*tokenizers)[i - 1] : nullptr);
        !tokens.is_null())
      outcome.more["token_divergence"] = std::move(tokens);
    ctx.writer().write_json(outcome.review_file, compare::review_to_json(review));
    if (!outcome.flipped.empty())
      ctx.flag_blocker("regression: " + cand_id + " flips " +
                       std::to_string(outcome.flipped.size()) + " fact(s) that " + base_id +
                       " gets right");
    outcomes.push_back(std::move(outcome));
  }
  write_pair_outcomes(ctx, outcomes);
  return outcomes;
}

void write_pair_outcomes(ExperimentContext& ctx, const std::vector<record::PairOutcome>& outcomes) {
  nlohmann::json comparisons = nlohmann::json::array();
  for (const record::PairOutcome& outcome : outcomes) comparisons.push_back(to_json(outcome));
  ctx.section()["comparisons"] = std::move(comparisons);
}

}  // namespace lb::run
