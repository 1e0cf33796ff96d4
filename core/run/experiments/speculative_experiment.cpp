#include "core/run/experiments/speculative_experiment.h"

#include <algorithm>
#include <cmath>
#include <variant>

#include "core/plan/synthetic_prompt.h"
#include "core/record/speculative_record.h"
#include "core/run/drive/chat_request_body.h"
#include "core/run/drive/synthetic_requests.h"
#include "core/run/experiments/pass_counters.h"

namespace lb::run {
namespace {

std::optional<record::LevelDistribution> distribution(const metrics::Distribution& d) {
  if (d.count == 0) return std::nullopt;
  return record::LevelDistribution{
      static_cast<int64_t>(d.count), d.median, d.p90, d.p99, d.mean, d.min, d.max};
}

// The server's counters around the level, when it drafted anything.
std::optional<record::AcceptanceRecord> acceptance(const std::optional<metrics::CounterDelta>& d) {
  if (!d || !d->spec_num_drafts || *d->spec_num_drafts <= 0) return std::nullopt;
  record::AcceptanceRecord a;
  a.drafts = *d->spec_num_drafts;
  a.acceptance_rate = d->spec_acceptance_rate.value_or(NAN);
  a.acceptance_length = d->spec_acceptance_length.value_or(NAN);
  a.per_position = d->spec_acceptance_per_position;
  return a;
}

LoadPhase level_phase(ExperimentContext& ctx, const LaneRuntime& lane,
                      const plan::SpeculativeExperiment& p, size_t level, uint64_t seed) {
  const int64_t c = p.concurrency[level];
  LoadPhase phase = lane_phase(ctx, lane, "c" + std::to_string(c));
  phase.concurrency = static_cast<int>(c);
  phase.count = p.requests;
  phase.warmups = p.warmups;
  ChatRequestOptions options;
  options.model = lane.endpoint.model;
  options.max_tokens = p.output_tokens;
  options.ignore_eos = lane.probe.supports_ignore_eos();
  options.server = lane.probe.kind;
  options.top_logprobs = ctx.spec().logprobs;
  phase.request_at = synthetic_requests(p.input_tokens, seed, static_cast<int64_t>(level), options,
                                        known_budget(lane, p.input_tokens, p.use_tokenize));
  return phase;
}

record::SpeculativeLevelRecord run_level(ExperimentContext& ctx, const LaneRuntime& lane,
                                         const plan::SpeculativeExperiment& p, size_t level,
                                         uint64_t seed) {
  // Acceptance comes from the measured requests alone: the "before" scrape waits for the
  // warm-ups, whose drafts would otherwise be counted.
  std::optional<PassCounters> counters;
  LoadPhase phase = level_phase(ctx, lane, p, level, seed);
  phase.on_measured_start = [&] { counters.emplace(ctx, lane); };
  const PhaseOutcome outcome = ctx.run_phase(phase);
  const auto delta = counters ? counters->finish() : std::nullopt;
  const metrics::LaneSummary s = metrics::summarize(outcome.records);
  record::SpeculativeLevelRecord r;
  r.level = phase.phase;
  r.concurrency = static_cast<double>(p.concurrency[level]);
  r.completed = static_cast<double>(s.completed);
  r.output_tok_s = s.output_throughput;
  r.decode_tok_s = distribution(s.decode_tok_s);
  r.itl_ms = distribution(s.itl_ms);
  r.tokens_per_event = distribution(s.tokens_per_event);
  r.acceptance = acceptance(delta);
  if (s.spec_acceptance_rate >= 0)
    r.usage_acceptance = record::AcceptanceRecord{static_cast<double>(s.spec_num_drafts),
                                                  s.spec_acceptance_rate,
                                                  s.spec_acceptance_length,
                                                  {}};
  return r;
}

// Each speculative lane's levels against the first lane that drafted nothing.
void compare_with_baseline(ExperimentContext& ctx, const std::string& baseline) {
  auto& lanes = ctx.section()["lanes"];
  const std::vector<record::SpeculativeLevelRecord> base =
      record::read_speculative(lanes[baseline]["speculative"]);
  for (auto& [id, lane] : lanes.items()) {
    if (id == baseline || !lane.contains("speculative")) continue;
    std::vector<record::SpeculativeLevelRecord> levels =
        record::read_speculative(lane["speculative"]);
    for (record::SpeculativeLevelRecord& level : levels) {
      const auto b = std::find_if(base.begin(), base.end(),
                                  [&](const auto& l) { return l.level == level.level; });
      if (b == base.end()) continue;
      level.baseline_lane = baseline;
      const double d = level.decode_tok_s_median(), bd = b->decode_tok_s_median();
      if (d > 0 && bd > 0) level.decode_speedup = d / bd;
      if (level.output_tok_s > 0 && b->output_tok_s > 0)
        level.output_tok_s_gain = level.output_tok_s / b->output_tok_s;
    }
    lane["speculative"] = record::to_json(levels);
  }
}

}  // namespace

void SpeculativeExperiment::run(ExperimentContext& ctx) {
  const auto& p = std::get<plan::SpeculativeExperiment>(ctx.spec().params);
  const std::string name = ctx.spec().name_or_kind();
  const uint64_t seed = name_seed(name) ^ ctx.trial_salt();
  std::string baseline;
  for (LaneRuntime* lane : ctx.lanes()) {
    synthetic_budget(ctx.client(), *lane, p.input_tokens, p.use_tokenize);
    std::vector<record::SpeculativeLevelRecord> levels;
    bool drafted = false;
    for (size_t level = 0; level < p.concurrency.size(); ++level) {
      if (ctx.stopped()) return;
      levels.push_back(run_level(ctx, *lane, p, level, seed));
      drafted = drafted || levels.back().acceptance.has_value();
    }
    ctx.section()["lanes"][lane->plan.id]["speculative"] = record::to_json(levels);
    ctx.section()["lanes"][lane->plan.id]["drafts"] = drafted;
    if (!drafted && baseline.empty()) baseline = lane->plan.id;
  }
  // With trials a turn runs one lane: the baseline may have run in an earlier turn.
  const nlohmann::json ran = ctx.section().value("lanes", nlohmann::json::object());
  for (const LaneRuntime* lane : ctx.all_lanes()) {
    const nlohmann::json l = ran.value(lane->plan.id, nlohmann::json::object());
    if (baseline.empty() && !l.value("drafts", true)) baseline = lane->plan.id;
  }
  if (baseline.empty())
    ctx.info("no lane without speculative decoding: no baseline to compare with");
  else
    compare_with_baseline(ctx, baseline);
}

}  // namespace lb::run
