#include "core/run/experiments/capacity_experiment.h"

#include <cmath>
#include <cstdio>
#include <variant>

#include "core/metrics/summary.h"
#include "core/net/steady_clock.h"
#include "core/run/drive/synthetic_requests.h"
#include "core/run/experiments/pass_counters.h"
#include "core/run/experiments/throughput_experiment.h"

namespace lb::run {
namespace {

std::string probe_phase_name(const plan::CapacityExperiment& p, double load) {
  if (p.by_rate()) return open_loop_phase_name(load);
  return "c" + std::to_string(std::llround(load));
}

LoadPhase probe_phase(const ExperimentContext& ctx, const LaneRuntime& lane,
                      const plan::CapacityExperiment& p, double load, int64_t probe, int64_t budget,
                      int64_t deadline_ns) {
  LoadPhase phase = lane_phase(ctx, lane, probe_phase_name(p, load));
  phase.count = p.requests;
  phase.warmups = p.warmups;
  // The search's bound holds for the warm-ups and the measured requests together: the stages'
  // durations each count from their own start, so the deadline is what stops them.
  phase.deadline_ns = deadline_ns;
  phase.duration_ns = std::max<int64_t>(1, deadline_ns - steady_now_ns());
  phase.warmup_duration_ns = phase.duration_ns;
  const uint64_t seed = name_seed(phase.experiment) ^ ctx.trial_salt();
  if (p.by_rate()) {
    phase.arrival = ArrivalOptions{load, 1.0, seed + static_cast<uint64_t>(probe)};
    phase.concurrency = 0;
  } else {
    phase.concurrency = static_cast<int>(std::llround(load));
  }
  ChatRequestOptions options;
  options.model = lane.endpoint.model;
  options.max_tokens = p.output_tokens;
  options.temperature = 0;
  options.ignore_eos = p.ignore_eos && lane.probe.supports_ignore_eos();
  options.server = lane.probe.kind;
  // Each probe has prompts of its own, so a later probe finds nothing of an earlier one cached.
  phase.request_at = synthetic_requests(p.input_tokens, seed, probe, options, budget);
  return phase;
}

CapacityProbe measure(const PhaseOutcome& outcome, const metrics::SloSpec& slo, double load) {
  const metrics::LaneSummary s = metrics::summarize(outcome.records, slo);
  CapacityProbe probe;
  probe.load = load;
  probe.completed = s.completed;
  probe.errors = outcome.errors;  // every failed measured request
  probe.ttft_p99_ms = s.completed > 0 ? s.ttft_ms.p99 : -1;
  probe.tpot_p99_ms = s.completed > 0 && std::isfinite(s.tpot_ms.p99) ? s.tpot_ms.p99 : -1;
  probe.goodput_req_s = s.request_goodput;
  probe.duration_s = s.duration_s;
  return probe;
}

struct SearchBounds {
  int64_t max_probes;
  int64_t deadline_ns;
};

// Why the search ended, for the record.
std::string stop_reason(const CapacitySearch& search, const SearchBounds& bounds, bool stopped) {
  if (stopped) return "interrupted";
  if (search.next()) {
    return static_cast<int64_t>(search.probes().size()) >= bounds.max_probes ? "max_probes"
                                                                             : "max_duration_s";
  }
  if (search.reached_max()) return "max_load";
  return "resolution";
}

record::CapacityRecord lane_record(const plan::CapacityExperiment& p, const CapacitySearch& search,
                                   const std::string& stopped_by, double search_s) {
  record::CapacityRecord r;
  r.load = p.load;
  r.unit = p.by_rate() ? "req/s" : "concurrent requests";
  if (search.capacity()) r.capacity = *search.capacity();
  if (const CapacityProbe* at = search.capacity_probe()) r.goodput_req_s = at->goodput_req_s;
  if (const CapacityProbe* limit = search.limiting_probe()) {
    r.binding_slo = limit->binding;
    r.failing_load = limit->load;
  }
  r.reached_max_load = search.reached_max();
  r.stopped_by = stopped_by;
  r.probe_count = static_cast<double>(search.probes().size());
  r.search_duration_s = search_s;
  for (const auto& probe : search.probes()) r.probes.push_back(probe_record(probe));
  return r;
}

void say_capacity(ExperimentContext& ctx, const std::string& lane,
                  const record::CapacityRecord& r) {
  if (!std::isfinite(r.capacity)) {
    ctx.warn("lane " + lane + ": no probed load met every SLO");
    return;
  }
  char text[160];
  std::snprintf(text, sizeof text, "lane %s: SLO capacity %g %s (%zu probes, stopped by %s)",
                lane.c_str(), r.capacity, r.unit.c_str(), r.probes.size(), r.stopped_by.c_str());
  ctx.info(text);
}

}  // namespace

void judge_probe(CapacityProbe& probe, double ttft_limit_ms, double tpot_limit_ms) {
  probe.binding.clear();
  if (probe.completed == 0) {
    probe.binding = "no_completed_requests";
    probe.pass = false;
    return;
  }
  double worst = 1.0;
  const auto check = [&](const char* name, double value, double limit) {
    if (limit <= 0) return;
    const double ratio = value >= 0 ? value / limit : HUGE_VAL;  // no figure = not met
    if (ratio > worst || (probe.binding.empty() && ratio > 1.0)) {
      worst = ratio;
      probe.binding = name;
    }
  };
  check("ttft_p99_ms", probe.ttft_p99_ms, ttft_limit_ms);
  check("tpot_p99_ms", probe.tpot_p99_ms, tpot_limit_ms);
  if (probe.binding.empty() && probe.errors > 0) probe.binding = "errors";
  probe.pass = probe.binding.empty();
}

record::CapacityProbeRecord probe_record(const CapacityProbe& probe) {
  record::CapacityProbeRecord r;
  r.load = probe.load;
  r.pass = probe.pass;
  r.ttft_p99_ms = probe.ttft_p99_ms;  // -1 (none) is written as null
  r.tpot_p99_ms = probe.tpot_p99_ms;
  r.goodput_req_s = probe.goodput_req_s;
  r.completed = static_cast<double>(probe.completed);
  r.errors = static_cast<double>(probe.errors);
  r.binding = probe.binding;
  r.duration_s = probe.duration_s;
  return r;
}

void CapacityExperiment::run(ExperimentContext& ctx) {
  const auto& p = std::get<plan::CapacityExperiment>(ctx.spec().params);
  metrics::SloSpec slo;
  slo.ttft_ms = p.ttft_p99_ms;
  slo.tpot_ms = p.tpot_p99_ms;
  ctx.section()["slo"] = record::to_json(record::CapacitySlo{p.ttft_p99_ms, p.tpot_p99_ms});
  for (LaneRuntime* lane : ctx.lanes()) {
    if (ctx.stopped()) return;
    const int64_t budget = synthetic_budget(ctx.client(), *lane, p.input_tokens, p.use_tokenize);
    const int64_t start_ns = steady_now_ns();
    const SearchBounds bounds{p.max_probes, start_ns + std::llround(p.max_duration_s * 1e9)};
    CapacitySearch search(p.start, p.effective_max_load(), p.effective_resolution(), !p.by_rate());
    std::optional<record::CapacityProbeRecord> cut;
    while (!ctx.stopped()) {
      const auto load = search.next();
      const int64_t now = steady_now_ns();
      if (!load || static_cast<int64_t>(search.probes().size()) >= bounds.max_probes ||
          now >= bounds.deadline_ns)
        break;
      const int64_t probe_index = static_cast<int64_t>(search.probes().size());
      const PhaseOutcome outcome = ctx.run_phase(
          probe_phase(ctx, *lane, p, *load, probe_index, budget, bounds.deadline_ns), slo);
      if (outcome.interrupted && ctx.stopped()) break;
      CapacityProbe probe = measure(outcome, slo, *load);
      judge_probe(probe, p.ttft_p99_ms, p.tpot_p99_ms);
      // Only the time bound stops a probe short of its requests, and such a probe says nothing
      // of its load: kept apart, not judged.
      if (probe.completed + probe.errors < p.requests) {
        cut = probe_record(probe);
        break;
      }
      search.record(probe);
    }
    const double search_s = static_cast<double>(steady_now_ns() - start_ns) / 1e9;
    record::CapacityRecord r =
        lane_record(p, search, stop_reason(search, bounds, ctx.stopped()), search_s);
    r.cut_probe = std::move(cut);
    say_capacity(ctx, lane->plan.id, r);
    ctx.section()["lanes"][lane->plan.id]["capacity"] = record::to_json(r);
  }
}

}  // namespace lb::run
