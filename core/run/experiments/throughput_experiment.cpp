#include "core/run/experiments/throughput_experiment.h"

#include <cstdio>
#include <variant>

#include "core/plan/synthetic_prompt.h"
#include "core/run/drive/chat_request_body.h"
#include "core/run/drive/synthetic_requests.h"
#include "core/run/experiments/concurrency_sweep.h"
#include "core/run/experiments/pass_counters.h"

namespace lb::run {
namespace {

// Two throughput experiments in one plan differ by name, and so do their prompts.
// FNV-1a, not std::hash: the same plan must give the same prompts on every platform.
uint64_t prompt_seed(const plan::ThroughputExperiment& p, const std::string& experiment_name) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char ch : experiment_name) h = (h ^ ch) * 1099511628211ULL;
  return p.seed ^ h;
}

metrics::SloSpec slo_of(const plan::ThroughputExperiment& p) {
  metrics::SloSpec slo;
  slo.ttft_ms = p.slo.ttft_ms;
  slo.tpot_ms = p.slo.tpot_ms;
  slo.e2el_ms = p.slo.e2el_ms;
  return slo;
}

LoadPhase base_phase(const plan::ThroughputExperiment& p, const ExperimentContext& ctx,
                     const LaneRuntime& lane, int64_t level) {
  LoadPhase phase;
  phase.experiment = ctx.spec().name_or_kind();
  phase.lane = &lane.endpoint;
  phase.url = lane.endpoint.api_url("/chat/completions");
  phase.count = p.requests;
  phase.duration_ns = static_cast<int64_t>(p.duration_s * 1e9);
  phase.warmups = p.warmups;
  ChatRequestOptions options;
  options.model = lane.endpoint.model;
  options.max_tokens = p.output_tokens;
  options.temperature = 0;
  options.ignore_eos = p.ignore_eos && lane.probe.supports_ignore_eos();
  options.server = lane.probe.kind;
  options.top_logprobs = ctx.spec().logprobs;
  const uint64_t seed = prompt_seed(p, phase.experiment) ^ ctx.trial_salt();
  // The budget was found when the lane's first level was set up (ThroughputExperiment::run).
  phase.request_at = synthetic_requests(p.input_tokens, seed, level, options,
                                        known_budget(lane, p.input_tokens, p.use_tokenize));
  // Only figures come of these requests, never texts: a phase of any length needs no more
  // memory than a short one.
  phase.spool_slo = slo_of(p);
  return phase;
}

}  // namespace

std::string open_loop_phase_name(double request_rate) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "r%g", request_rate);
  return buf;
}

namespace {

// One closed-loop level: the usual phase ("c8") plus its sweep figures.
LevelFigures run_level(ExperimentContext& ctx, const plan::ThroughputExperiment& p,
                       const LaneRuntime& lane, int64_t level, int64_t c) {
  LoadPhase phase = base_phase(p, ctx, lane, level);
  phase.phase = "c" + std::to_string(c);
  phase.concurrency = static_cast<int>(c);
  const metrics::SloSpec slo = slo_of(p);
  const PhaseOutcome outcome = ctx.run_phase(phase, slo);
  return level_figures(
      c, outcome.summary ? *outcome.summary : metrics::summarize(outcome.records, slo),
      outcome.errors, outcome.interrupted);
}

record::ConcurrencySweepRecord run_list(ExperimentContext& ctx, const plan::ThroughputExperiment& p,
                                        const LaneRuntime& lane) {
  std::vector<LevelFigures> levels;
  for (size_t level = 0; level < p.concurrency.size() && !ctx.stopped(); ++level)
    levels.push_back(run_level(ctx, p, lane, static_cast<int64_t>(level), p.concurrency[level]));
  return sweep_record(levels, plan::ConcurrencyDoubling{}.min_gain, "list", std::nullopt);
}

record::ConcurrencySweepRecord run_doubling(ExperimentContext& ctx,
                                            const plan::ThroughputExperiment& p,
                                            const LaneRuntime& lane) {
  const plan::ConcurrencyDoubling& d = *p.doubling;
  std::vector<LevelFigures> levels;
  std::optional<SweepStop> stop;
  for (int64_t c = d.start, level = 0;; c *= 2, ++level) {
    levels.push_back(run_level(ctx, p, lane, level, c));
    stop = doubling_stop(levels, d, c * 2);
    if (!stop && ctx.stopped()) stop = SweepStop{"interrupted", c, "the run was stopped"};
    if (stop) break;
  }
  ctx.info("lane " + lane.plan.id + ": doubling stopped at concurrency " +
           std::to_string(stop->at_concurrency) + ": " + stop->detail);
  return sweep_record(levels, d.min_gain, "doubling", stop);
}

// KV capacity from the cache config the lane exposed, or why there is none.
record::KvCapacityRecord kv_capacity_or_why(const LaneRuntime& lane) {
  if (std::optional<record::KvCapacityRecord> kv = kv_capacity(lane)) return *kv;
  record::KvCapacityRecord none;
  none.provenance = metrics::to_string(metrics::Provenance::None);
  none.reason = "the server's /metrics exposes no KV cache config";
  return none;
}

}  // namespace

void ThroughputExperiment::run(ExperimentContext& ctx) {
  const auto& p = std::get<plan::ThroughputExperiment>(ctx.spec().params);
  for (LaneRuntime* lane : ctx.lanes()) {
    if (ctx.stopped()) return;
    if (p.ignore_eos && !lane->probe.supports_ignore_eos())
      ctx.warn("lane " + lane->plan.id + " (" + to_string(lane->probe.kind) +
               ") is not known to accept ignore_eos: requests may stop before " +
               std::to_string(p.output_tokens) + " output tokens");
    ctx.section()["lanes"][lane->plan.id]["kv_capacity"] =
        record::to_json(kv_capacity_or_why(*lane));
    synthetic_budget(ctx.client(), *lane, p.input_tokens, p.use_tokenize);
    if (p.request_rate > 0) {
      LoadPhase phase = base_phase(p, ctx, *lane, 0);
      phase.phase = open_loop_phase_name(p.request_rate);
      phase.concurrency = static_cast<int>(p.max_concurrency);
      phase.arrival = ArrivalOptions{p.request_rate, p.burstiness, p.seed};
      ctx.run_phase(phase, slo_of(p));
      continue;
    }
    const record::ConcurrencySweepRecord sweep =
        p.doubling ? run_doubling(ctx, p, *lane) : run_list(ctx, p, *lane);
    ctx.section()["lanes"][lane->plan.id]["concurrency_sweep"] = record::to_json(sweep);
  }
}

}  // namespace lb::run
