#include "run/throughput_experiment.h"

#include <cstdio>
#include <variant>

#include "plan/synthetic_prompt.h"
#include "run/chat_request_body.h"
#include "run/synthetic_requests.h"

namespace lb::run {
namespace {

// Two throughput experiments in one plan differ by name, and so do their prompts.
// FNV-1a, not std::hash: the same plan must give the same prompts on every platform.
uint64_t prompt_seed(const plan::ThroughputExperiment& p, const std::string& experiment_name) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char ch : experiment_name) h = (h ^ ch) * 1099511628211ULL;
  return p.seed ^ h;
}

LoadPhase base_phase(const plan::ThroughputExperiment& p, const ExperimentContext& ctx,
                     const LaneRuntime& lane, int64_t level) {
  LoadPhase phase;
  phase.experiment = ctx.spec().name.empty() ? ctx.spec().kind : ctx.spec().name;
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
  const uint64_t seed = prompt_seed(p, phase.experiment);
  phase.request_at = synthetic_requests(p.input_tokens, seed, level, options);
  return phase;
}

metrics::SloSpec slo_of(const plan::ThroughputExperiment& p) {
  metrics::SloSpec slo;
  slo.ttft_ms = p.slo.ttft_ms;
  slo.tpot_ms = p.slo.tpot_ms;
  slo.e2el_ms = p.slo.e2el_ms;
  return slo;
}

}  // namespace

std::string open_loop_phase_name(double request_rate) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "r%g", request_rate);
  return buf;
}

void ThroughputExperiment::run(ExperimentContext& ctx) {
  const auto& p = std::get<plan::ThroughputExperiment>(ctx.spec().params);
  for (LaneRuntime* lane : ctx.lanes()) {
    if (p.ignore_eos && !lane->probe.supports_ignore_eos())
      ctx.warn("lane " + lane->plan.id + " (" + to_string(lane->probe.kind) +
               ") is not known to accept ignore_eos: requests may stop before " +
               std::to_string(p.output_tokens) + " output tokens");
    if (p.request_rate > 0) {
      LoadPhase phase = base_phase(p, ctx, *lane, 0);
      phase.phase = open_loop_phase_name(p.request_rate);
      phase.concurrency = static_cast<int>(p.max_concurrency);
      phase.arrival = ArrivalOptions{p.request_rate, p.burstiness, p.seed};
      ctx.run_phase(phase, slo_of(p));
      continue;
    }
    for (size_t level = 0; level < p.concurrency.size(); ++level) {
      if (ctx.stopped()) return;
      const int64_t c = p.concurrency[level];
      LoadPhase phase = base_phase(p, ctx, *lane, static_cast<int64_t>(level));
      phase.phase = "c" + std::to_string(c);
      phase.concurrency = static_cast<int>(c);
      ctx.run_phase(phase, slo_of(p));
    }
  }
}

}  // namespace lb::run
