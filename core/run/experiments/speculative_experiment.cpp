#include "core/run/experiments/speculative_experiment.h"

#include <variant>

#include "core/plan/synthetic_prompt.h"
#include "core/run/drive/chat_request_body.h"
#include "core/run/drive/synthetic_requests.h"
#include "core/run/experiments/pass_counters.h"

namespace lb::run {
namespace {

nlohmann::json distribution_json(const metrics::Distribution& d) {
  if (d.count == 0) return nullptr;
  return {{"count", d.count}, {"median", d.median}, {"p90", d.p90}, {"p99", d.p99},
          {"mean", d.mean},   {"min", d.min},       {"max", d.max}};
}

nlohmann::json acceptance_json(const std::optional<metrics::CounterDelta>& d) {
  if (!d || !d->spec_num_drafts || *d->spec_num_drafts <= 0) return nullptr;
  nlohmann::json j;
  j["provenance"] = "server";
  j["drafts"] = *d->spec_num_drafts;
  if (d->spec_acceptance_rate) j["acceptance_rate"] = *d->spec_acceptance_rate;
  if (d->spec_acceptance_length) j["acceptance_length"] = *d->spec_acceptance_length;
  j["per_position"] = d->spec_acceptance_per_position;
  return j;
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

nlohmann::json run_level(ExperimentContext& ctx, const LaneRuntime& lane,
                         const plan::SpeculativeExperiment& p, size_t level, uint64_t seed) {
  // Acceptance comes from the measured requests alone: the "before" scrape waits for the
  // warm-ups, whose drafts would otherwise be counted.
  std::optional<PassCounters> counters;
  LoadPhase phase = level_phase(ctx, lane, p, level, seed);
  phase.on_measured_start = [&] { counters.emplace(ctx, lane); };
  const PhaseOutcome outcome = ctx.run_phase(phase);
  const auto delta = counters ? counters->finish() : std::nullopt;
  const metrics::LaneSummary s = metrics::summarize(outcome.records);
  nlohmann::json j = {{"concurrency", p.concurrency[level]},
                      {"completed", s.completed},
                      {"output_tok_s", s.output_throughput},
                      {"decode_tok_s", distribution_json(s.decode_tok_s)},
                      {"itl_ms", distribution_json(s.itl_ms)},
                      {"tokens_per_event", distribution_json(s.tokens_per_event)}};
  j["acceptance"] = acceptance_json(delta);
  if (s.spec_acceptance_rate >= 0)
    j["usage_acceptance"] = {{"provenance", "server"},
                             {"drafts", s.spec_num_drafts},
                             {"acceptance_rate", s.spec_acceptance_rate},
                             {"acceptance_length", s.spec_acceptance_length}};
  return j;
}

double median_decode(const nlohmann::json& level) {
  return level["decode_tok_s"].is_object() ? level["decode_tok_s"]["median"].get<double>() : -1;
}

// Each speculative lane's levels against the first lane that drafted nothing.
void compare_with_baseline(ExperimentContext& ctx, const std::string& baseline) {
  auto& lanes = ctx.section()["lanes"];
  const auto& base = lanes[baseline]["speculative"];
  for (auto& [id, lane] : lanes.items()) {
    if (id == baseline || !lane.contains("speculative")) continue;
    for (auto& [level, figures] : lane["speculative"].items()) {
      if (!base.contains(level)) continue;
      const double d = median_decode(figures), b = median_decode(base[level]);
      nlohmann::json vs = {{"baseline_lane", baseline}};
      if (d > 0 && b > 0) vs["decode_speedup"] = d / b;
      const double o = figures["output_tok_s"], ob = base[level]["output_tok_s"];
      if (o > 0 && ob > 0) vs["output_tok_s_gain"] = o / ob;
      figures["vs_baseline"] = std::move(vs);
    }
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
    nlohmann::json levels;
    bool drafted = false;
    for (size_t level = 0; level < p.concurrency.size(); ++level) {
      if (ctx.stopped()) return;
      nlohmann::json j = run_level(ctx, *lane, p, level, seed);
      drafted = drafted || !j["acceptance"].is_null();
      levels["c" + std::to_string(p.concurrency[level])] = std::move(j);
    }
    ctx.section()["lanes"][lane->plan.id]["speculative"] = std::move(levels);
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
