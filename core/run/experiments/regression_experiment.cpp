#include "core/run/experiments/regression_experiment.h"

#include <algorithm>
#include <cmath>
#include <variant>

#include "core/compare/floor_verdict.h"
#include "core/net/secret_text.h"
#include "core/run/drive/chat_request_body.h"
#include "core/run/experiments/cross_scoring.h"
#include "core/run/experiments/determinism_experiment.h"
#include "core/run/experiments/gate_checks.h"

namespace lb::run {

LaneTexts texts_in_prompt_order(const std::vector<metrics::RequestRecord>& records,
                                size_t prompt_count) {
  LaneTexts out;
  out.texts.assign(prompt_count, std::string());
  out.errors.assign(prompt_count, "not run");
  out.media_refused.assign(prompt_count, false);
  for (const auto& r : records) {
    if (r.index < 0 || static_cast<size_t>(r.index) >= prompt_count) continue;
    const auto i = static_cast<size_t>(r.index);
    out.texts[i] = r.result.content;
    out.media_refused[i] = !r.media.empty() && says_media_unsupported(r.result);
    out.errors[i] =
        r.result.error == net::ErrorKind::None
            ? std::string()
            : std::string(net::to_string(r.result.error)) + ": " + r.result.error_message;
  }
  return out;
}

std::optional<plan::PromptSet> load_experiment_prompts(ExperimentContext& ctx,
                                                       const std::string& ref) {
  auto loaded = plan::load_prompt_set(ref);
  if (!loaded.ok()) {
    ctx.sink().on_message(MessageLevel::Error, ctx.spec().kind + ": cannot load prompt set " + ref +
                                                   ":\n" + loaded.error_text());
    ctx.section()["error"] = "cannot load prompt set " + ref;
    return std::nullopt;
  }
  ctx.section()["prompt_set"] = loaded.set->name;
  ctx.section()["prompt_count"] = loaded.set->prompts.size();
  return std::move(loaded.set);
}

LoadPhase prompt_set_phase(const ExperimentContext& ctx, const LaneRuntime& lane,
                           const plan::PromptSet& set, const PromptPass& pass) {
  LoadPhase phase;
  phase.experiment = ctx.spec().name_or_kind();
  phase.phase = pass.phase;
  phase.lane = &lane.endpoint;
  phase.url = lane.endpoint.api_url("/chat/completions");
  phase.count = static_cast<int64_t>(set.prompts.size());
  phase.concurrency = static_cast<int>(std::max<int64_t>(1, pass.concurrency));
  ChatRequestOptions options;
  options.model = lane.endpoint.model;
  options.temperature = pass.temperature;
  options.server = lane.probe.kind;
  options.max_media_bytes = lane.plan.max_media_bytes;
  options.top_logprobs = pass.top_logprobs;
  // Prompt sets say how long each answer may be; the plan's max_tokens caps them all.
  phase.request_at = [&set, options, cap = pass.max_tokens](int64_t n, bool) mutable {
    const auto& prompt = set.prompts[static_cast<size_t>(n)];
    options.max_tokens = std::min<int64_t>(prompt.max_tokens, cap);
    RequestBody built = prompt_request_body(prompt, options);
    PlannedRequest r;
    r.index = n;
    r.max_tokens = options.max_tokens;
    r.body = std::move(built.body);
    r.media = std::move(built.media);
    r.refused = std::move(built.refused);
    return r;
  };
  return phase;
}

namespace {

LoadPhase regression_phase(const plan::RegressionExperiment& p, const plan::PromptSet& set,
                           const ExperimentContext& ctx, const LaneRuntime& lane,
                           int64_t top_logprobs, int64_t load_concurrency = 0) {
  PromptPass pass;
  pass.phase = top_logprobs > 0 || p.logprobs == 0 ? "greedy" : "greedy-no-logprobs";
  if (load_concurrency > 0) pass.phase = "greedy-load";
  pass.concurrency = load_concurrency > 0 ? load_concurrency : p.concurrency;
  pass.max_tokens = p.max_tokens;
  pass.temperature = p.temperature;
  pass.top_logprobs = top_logprobs;
  return prompt_set_phase(ctx, lane, set, pass);
}

nlohmann::json error_list(const LaneTexts& texts, const plan::PromptSet& set) {
  nlohmann::json errors = nlohmann::json::array();
  for (size_t i = 0; i < texts.errors.size(); ++i)
    if (!texts.errors[i].empty())
      errors.push_back({{"index", i}, {"id", set.prompts[i].id}, {"error", texts.errors[i]}});
  return errors;
}

void write_logprobs(ExperimentContext& ctx, const std::string& lane_id,
                    const std::vector<logprobs::PromptLogprobs>& lines, int top_k,
                    nlohmann::json& lane_section) {
  std::string file;
  int64_t tokens = 0, with = 0;
  std::string note;
  for (const auto& l : lines) {
    file += logprobs::to_line(l) + "\n";
    tokens += static_cast<int64_t>(l.tokens.size());
    with += l.status == "ok" ? 1 : 0;
    if (l.status == "unsupported" && note.empty()) note = l.note;
  }
  const std::string path = "logprobs/" + lane_id + ".jsonl";
  ctx.writer().write_file(path, file);
  lane_section["logprobs"] = {{"file", path},
                              {"top_k", top_k},
                              {"status", with > 0 ? "ok" : "logprobs unsupported"},
                              {"prompts_with_logprobs", with},
                              {"tokens", tokens},
                              {"bytes", file.size()}};
  if (with == 0) lane_section["logprobs"]["note"] = note;
}

// Each candidate's answers read by the baseline and the baseline's by the candidate.
std::vector<nlohmann::json> cross_scores(
    ExperimentContext& ctx, const plan::PromptSet& set, const std::vector<const LaneRuntime*>& ran,
    const std::vector<std::pair<std::string, LaneTexts>>& lane_texts, int top_k,
    double min_top1_agreement, const std::vector<TokenizerMatch>& tokenizers) {
  std::vector<nlohmann::json> out;
  for (size_t i = 1; i < lane_texts.size() && !ctx.stopped(); ++i) {
    ctx.sink().on_message(MessageLevel::Info, "regression: cross-scoring " + ran[i]->plan.id +
                                                  " and " + ran[0]->plan.id);
    const TokenizerMatch& match = tokenizers[i - 1];
    const PairCrossScores s = cross_score_pair(
        ctx, set, *ran[0], lane_texts[0].second, *ran[i], lane_texts[i].second, top_k,
        match.state == TokenizerMatch::State::Different ? match.reason : std::string());
    for (const auto* d : {&s.candidate_under_baseline, &s.baseline_under_candidate})
      if (d->status != "ok")
        ctx.sink().on_message(MessageLevel::Warning, "regression: " + d->scorer + " reading " +
                                                         d->producer + ": " + d->reason);
    nlohmann::json totals = to_json(s);
    if (min_top1_agreement >= 0) totals["min_top1_agreement"] = min_top1_agreement;
    out.push_back({{"totals", std::move(totals)}, {"per_prompt", s.per_prompt}});
  }
  return out;
}

// The baseline against itself (the first lane of the context): the floor its candidates'
// differences are judged against.
record::DeterminismFloor measure_regression_floor(ExperimentContext& ctx,
                                                  const plan::DeterminismExperiment& floor,
                                                  const plan::PromptSet& set) {
  LaneRuntime& baseline = *ctx.lanes()[0];
  record::DeterminismFloor measured = measure_floor(
      ctx, baseline, floor, set, "determinism/regression/" + baseline.plan.id + ".json");
  measured.lane = baseline.plan.id;
  ctx.section()["floor"] = record::to_json(measured);
  return measured;
}

record::FloorVerdictRecord floor_verdict_record(const compare::FloorVerdict& v,
                                                const record::PairOutcome& pair) {
  record::FloorVerdictRecord r;
  r.baseline = pair.baseline;
  r.candidate = pair.candidate;
  r.verdict = compare::verdict_name(v);
  r.text = compare::verdict_text(v);
  r.test = v.test;
  r.p_value = v.p_value;
  r.alpha = v.alpha;
  r.differing = static_cast<double>(v.differing);
  r.compared = static_cast<double>(v.compared);
  r.floor_flips = static_cast<double>(v.floor_flips);
  r.floor_compared = static_cast<double>(v.floor_compared);
  return r;
}

// What the merge of shards needs beyond the texts and logprobs files to judge this lane's pairs:
// which prompts' media the lane refused, and its tokenizer's ids for the probe text.
void record_for_merge(ExperimentContext& ctx, const LaneRuntime& lane, const LaneTexts& texts,
                      int top_k, nlohmann::json& lane_section) {
  nlohmann::json refused = nlohmann::json::array();
  for (size_t i = 0; i < texts.media_refused.size(); ++i)
    if (texts.media_refused[i]) refused.push_back(i);
  lane_section["media_refused"] = std::move(refused);
  if (top_k > 0)
    lane_section["tokenizer_probe"] = to_json(probe_tokenizer(ctx.client(), lane.endpoint));
}

}  // namespace

void judge_regression_floor(ExperimentContext& ctx, const record::DeterminismFloor& floor,
                            std::vector<record::PairOutcome>& outcomes) {
  const auto count = [](double v) { return std::isfinite(v) ? static_cast<int64_t>(v) : 0; };
  if (count(floor.floor.prompts_compared) <= 0) return;
  for (record::PairOutcome& c : outcomes) {
    // Only prompts both lanes answered (no failed request, no refused media) count.
    const compare::FloorVerdict v = compare::judge_against_floor(
        std::max<int64_t>(c.differing_answers, 0), std::max<int64_t>(c.answered_by_both, 0),
        count(floor.floor.flips), count(floor.floor.prompts_compared));
    c.floor_verdict = floor_verdict_record(v, c);
    ctx.info("regression: " + c.candidate + " " + c.floor_verdict->text);
  }
  write_pair_outcomes(ctx, outcomes);
}

void RegressionExperiment::run(ExperimentContext& ctx) {
  const auto& p = std::get<plan::RegressionExperiment>(ctx.spec().params);
  const std::optional<plan::PromptSet> loaded = load_experiment_prompts(ctx, p.prompts);
  if (!loaded) return;
  const plan::PromptSet& set = *loaded;
  std::vector<std::pair<std::string, LaneTexts>> lane_texts;
  std::vector<const LaneRuntime*> ran;
  const int top_k = static_cast<int>(p.logprobs);
  const bool sharded = !ctx.spec().shard_lanes.empty();
  for (LaneRuntime* lane : ctx.lanes()) {
    if (ctx.stopped()) break;
    PhaseOutcome outcome = ctx.run_phase(regression_phase(p, set, ctx, *lane, top_k));
    std::string unsupported;
    if (top_k > 0 && refused_logprobs(outcome.records, unsupported)) {
      // The run goes on without them: the texts still make the regression.
      ctx.sink().on_message(MessageLevel::Warning,
                            "regression: " + lane->plan.id + " refuses logprobs; running without");
      unsupported = "the server refused logprobs: " + unsupported;
      if (ctx.stopped()) break;
      outcome = ctx.run_phase(regression_phase(p, set, ctx, *lane, 0));
    }
    LaneTexts texts = texts_in_prompt_order(outcome.records, set.prompts.size());
    ctx.writer().write_json("texts/" + lane->plan.id + ".texts.json", texts.texts);
    auto& lane_section = ctx.section()["lanes"][lane->plan.id];
    lane_section["prompt_errors"] = error_list(texts, set);
    if (top_k > 0) {
      texts.logprobs = logprobs_in_prompt_order(outcome.records, set, top_k, unsupported);
      // Notes quote server error messages, which may quote the key they refused.
      const std::vector<std::string> keys = {api_key_of(lane->endpoint)};
      for (auto& l : texts.logprobs) l.note = net::redact_secret_text(std::move(l.note), keys);
      write_logprobs(ctx, lane->plan.id, texts.logprobs, top_k, lane_section);
    }
    if (p.load_baseline_concurrency > 0 && !ctx.stopped()) {
      // The same greedy prompts at the load concurrency, without logprobs (they cost arrival
      // fidelity under load and do not change a greedy answer).
      PhaseOutcome load =
          ctx.run_phase(regression_phase(p, set, ctx, *lane, 0, p.load_baseline_concurrency));
      LaneTexts under_load = texts_in_prompt_order(load.records, set.prompts.size());
      const std::string file = "texts/" + lane->plan.id + ".load-c" +
                               std::to_string(p.load_baseline_concurrency) + ".texts.json";
      ctx.writer().write_json(file, under_load.texts);
      const record::LoadBaselineRecord baseline =
          load_baseline_record(set, texts, under_load, p, file);
      lane_section["load_baseline"] = record::to_json(baseline);
      texts.batch_variant = batch_variant_prompts(baseline, set);
    }
    if (sharded) record_for_merge(ctx, *lane, texts, top_k, lane_section);
    lane_texts.emplace_back(lane->plan.id, std::move(texts));
    ran.push_back(lane);
  }
  // A shard runs one lane: the merge judges its pairs, and the baseline's shard measures the floor.
  if (sharded && !ctx.stopped() && p.floor && ctx.lanes()[0]->plan.id == ctx.spec().shard_lanes[0])
    measure_regression_floor(ctx, *p.floor, set);
  if (ctx.stopped() || lane_texts.size() < 2) return;
  // Token evidence compares token ids only between lanes whose tokenizers agree.
  std::vector<TokenizerMatch> tokenizers;
  for (size_t i = 1; top_k > 0 && i < ran.size(); ++i) {
    tokenizers.push_back(compare_tokenizers(ctx.client(), ran[0]->plan.id, ran[0]->endpoint,
                                            ran[i]->plan.id, ran[i]->endpoint));
    if (tokenizers.back().state == TokenizerMatch::State::Different)
      ctx.sink().on_message(MessageLevel::Warning,
                            "regression: the tokenizers of " + ran[0]->plan.id + " and " +
                                ran[i]->plan.id + " differ (" + tokenizers.back().reason +
                                "): their answers are compared as text, not token by token");
  }
  std::vector<nlohmann::json> cross;
  if (p.cross_score && top_k > 0)
    cross = cross_scores(ctx, set, ran, lane_texts, top_k, p.min_top1_agreement, tokenizers);
  std::vector<record::PairOutcome> outcomes = triage_lane_pairs(
      ctx, set, lane_texts, p.similarity_threshold, p.near_tie_margin_nats, top_k,
      cross.empty() ? nullptr : &cross, tokenizers.empty() ? nullptr : &tokenizers);
  // The floor last: a stop while it runs keeps the regression's review and blockers.
  if (!p.floor || ctx.stopped()) return;
  const record::DeterminismFloor floor = measure_regression_floor(ctx, *p.floor, set);
  if (!ctx.stopped()) judge_regression_floor(ctx, floor, outcomes);
}

}  // namespace lb::run
