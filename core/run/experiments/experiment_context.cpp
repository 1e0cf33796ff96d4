#include "core/run/experiments/experiment.h"

#include <algorithm>

#include "core/logprobs/raw_logprobs.h"
#include "core/metrics/phase_cost.h"
#include "core/metrics/steady_state.h"
#include "core/record/overloaded.h"
#include "core/record/phase_intervals.h"
#include "core/run/experiments/capacity_experiment.h"
#include "core/run/experiments/context_sweep_experiment.h"
#include "core/run/experiments/determinism_experiment.h"
#include "core/run/experiments/gates_experiment.h"
#include "core/run/experiments/prefix_cache_experiment.h"
#include "core/run/experiments/regression_experiment.h"
#include "core/run/experiments/sampled_regression_experiment.h"
#include "core/run/experiments/sessions_experiment.h"
#include "core/run/experiments/speculative_experiment.h"
#include "core/run/experiments/throughput_experiment.h"
#include "core/run/experiments/trace_experiment.h"
#include "core/run/folder/written_first_sink.h"

namespace lb::run {
namespace {

// About 25,000 tokens with top-5 alternatives (vLLM's chat shape: ~330 bytes a token); more
// are written as they come, and recycled once each answer is read.
constexpr size_t kLogprobReserveBytes = 8 * 1024 * 1024;

// The simulator takes x-sim-trial (its run_jitter draws one speed factor per trial).
bool is_simulator(const std::vector<LaneRuntime*>& lanes, const LaneEndpoint* endpoint) {
  for (const LaneRuntime* lane : lanes)
    if (&lane->endpoint == endpoint)
      return lane->plan.is_sim() || lane->probe.kind == ServerKind::LanebenchSim;
  return false;
}

// "experiment phase: " for a meeting's key (experiment, phase and trial on lines of their own).
std::string key_text(const std::string& key) {
  std::string out = key.substr(0, key.rfind('\n'));
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out + ": ";
}

// One trial's phase as summary.json records it, its steady state aside: the figures, their
// intervals over requests, and why the others have none.
record::PhaseRecord single_trial_phase(const metrics::LaneSummary& summary,
                                       const metrics::RequestSamples& samples,
                                       const PhaseOutcome& outcome,
                                       const metrics::PhaseEnergy& energy, double usd_per_hour) {
  record::PhaseRecord p;
  p.figures = summary;
  record::set_intervals(p, record::intervals_over_requests(samples));
  nlohmann::json& j = p.more;
  j["interrupted"] = outcome.interrupted;
  j["cancelled"] = outcome.cancelled;
  // One reading of the counter and one throughput per phase: their intervals need trials.
  j["intervals_unavailable"] = {{"output_throughput", "n/a (1 trial)"}};
  if (energy.measured()) j["intervals_unavailable"]["joules_per_output_token"] = "n/a (1 trial)";
  if (usd_per_hour > 0)
    j["intervals_unavailable"]["usd_per_million_output_tokens"] = "n/a (1 trial)";
  j["energy"] = metrics::to_json(energy);
  if (usd_per_hour > 0) j["cost"] = metrics::cost_json(usd_per_hour, summary.output_throughput);
  return p;
}

}  // namespace

ExperimentContext::ExperimentContext(net::StreamClient& client, RunSink& sink,
                                     record::RunFolderWriter& writer, const std::atomic<bool>& stop,
                                     const plan::Experiment& spec, std::vector<LaneRuntime*> lanes,
                                     nlohmann::json& section)
    : client_(client),
      sink_(sink),
      writer_(writer),
      stop_(stop),
      spec_(spec),
      lanes_(std::move(lanes)),
      all_lanes_(lanes_),
      section_(section) {
  // An experiment that keeps per-token logprobs finds written blocks for them, so the I/O thread
  // does not fault in fresh pages while it stamps other streams (logprobs/raw_logprobs.h).
  if (kind_of(spec) == record::ExperimentKind::Regression || spec.logprobs > 0) {
    logprobs::reserve_raw_blocks(kLogprobReserveBytes);
  }
}

LoadPhase ExperimentContext::prepared(const LoadPhase& planned) const {
  LoadPhase phase = planned;
  phase.timeouts.total_ms = request_timeout_ms(spec_);
  phase.trial = trial_;
  if (trials_ > 1 && is_simulator(lanes_, phase.lane))
    phase.extra_headers.emplace_back("x-sim-trial", std::to_string(trial_));
  return phase;
}

PhaseOutcome ExperimentContext::run_phase(const LoadPhase& planned, const metrics::SloSpec& slo) {
  LoadPhase phase = prepared(planned);
  join_split(phase);
  // Trials pool their records, and log-probabilities are written from them: both keep records.
  if (trials_ > 1 || spec_.logprobs > 0) phase.spool_slo.reset();
  if (phase.spool_slo) phase.spool_slo = slo;  // the objectives this summary counts
  energy_meter_ = energy_meter_for(phase);
  // Energy is read once the warm-ups are done, before the first measured request.
  phase.on_measured_start = [meter = energy_meter_.get(), then = phase.on_measured_start] {
    meter->start();
    if (then) then();
  };
  return run_phase_with(
      phase,
      [&](RunSink& sink, const LoadDriver::RecordHandler& on_record) {
        LoadDriver driver(client_, sink, stop_);
        return driver.run(phase, on_record);
      },
      slo);
}

void ExperimentContext::join_split(LoadPhase& phase) {
  const auto& split = spec_.split_client;
  if (split && split_barrier_ && phase.lane->id == split->split.lane) {
    phase.split_client = split->client;
    phase.split_clients = split->split.clients;
    const std::string key = phase.experiment + "\n" + phase.phase + "\n" + std::to_string(trial_);
    phase.common_start_ns = [this, key, barrier = split_barrier_] {
      std::string why;
      const auto start = barrier->meet(key, stop_, &why);
      // The lane's clients are out of step: their merged figures would mislead.
      if (!start && !stop_.load()) flag_blocker("split lane: " + key_text(key) + why);
      return start;
    };
  }
}

std::unique_ptr<PhaseEnergyMeter> ExperimentContext::energy_meter_for(
    const LoadPhase& phase) const {
  EnergySourceUse none;
  none.unsupported = energy_not_measured_;
  if (none.unsupported.empty()) {
    for (const LaneRuntime* lane : all_lanes_)
      if (&lane->endpoint == phase.lane)
        return std::make_unique<PhaseEnergyMeter>(
            client_, lane->endpoint, energy_source_of(lane->plan, lane->endpoint, lane->probe));
    none.unsupported = "the phase's lane is not one of the experiment's";
  }
  return std::make_unique<PhaseEnergyMeter>(client_, *phase.lane, std::move(none));
}

PhaseOutcome ExperimentContext::run_phase_with(const LoadPhase& phase, const PhaseDrive& drive,
                                               const metrics::SloSpec& slo) {
  WrittenFirstSink ordered(sink_, writer_);
  int64_t warmups = 0;
  // A phase driven elsewhere has no hook at the end of its warm-ups: its energy counts from here.
  const bool hooked = energy_meter_ != nullptr;  // run_phase() starts it after the warm-ups
  std::unique_ptr<PhaseEnergyMeter> energy =
      hooked ? std::move(energy_meter_) : energy_meter_for(phase);
  if (!hooked) energy->start();
  PhaseOutcome outcome = drive(ordered, [&](const metrics::RequestRecord& record) {
    ordered.record(record);
    warmups += record.warmup ? 1 : 0;
  });
  energy->finish();
  writer_.flush();  // the sink has heard of every request of the phase when it returns
  keep_logprobs(phase, outcome);
  if (trials_ > 1) {
    record_trial_phase(phase, outcome, slo, warmups, *energy);
    return outcome;
  }
  metrics::RequestSamples samples;
  // A spooled phase's rows are read back once, for its summary and its steady state.
  std::vector<metrics::RequestRow> rows;
  if (outcome.spool) rows = outcome.spool->rows();
  metrics::LaneSummary summary = outcome.spool ? outcome.spool->summarize(rows, &samples)
                                               : metrics::summarize(outcome.records, slo, &samples);
  if (outcome.spool) {
    if (const std::string why = outcome.spool->memory_fallback_reason(); !why.empty())
      warn("lane " + phase.lane->id + " " + phase.phase + ": " + why +
           "; its figures are exact, but it held its requests in memory");
  }
  summary.warmups_excluded = warmups;
  outcome.summary = summary;
  const metrics::PhaseEnergy phase_energy = energy->energy(summary.total_output_tokens);
  record::PhaseRecord written =
      single_trial_phase(summary, samples, outcome, phase_energy, cost_per_hour_of(phase.lane->id));
  // A closed-loop phase's figures without its ramp-up and drain, an open-loop phase's without
  // the warm-up and cool-down the plan names (docs/metrics.md).
  const bool open_loop = phase.arrival.has_value() || !phase.schedule_ns.empty();
  const metrics::OpenLoopTrim trim{spec_.trim.warmup_s, spec_.trim.cooldown_s,
                                   spec_.trim.warmup_requests, spec_.trim.cooldown_requests};
  const bool steady = phase.concurrency > 0 && !open_loop;
  if (steady || (open_loop && trim.any())) {
    if (!outcome.spool) rows = metrics::request_rows(outcome.records);
    written.more["steady_state"] = metrics::to_json(
        steady ? metrics::steady_state_of(rows, phase.concurrency, spec_.steady_state_fraction)
               : metrics::trimmed_state_of(rows, trim));
  }
  phase_samples_.push_back({phase.lane->id, phase.phase, std::move(samples)});
  auto& lane_section = section_["lanes"][phase.lane->id];
  lane_section["phases"][phase.phase] = record::to_json(written);
  lane_section["phase_order"].push_back(phase.phase);  // JSON objects do not keep run order
  return outcome;
}

void ExperimentContext::flag_blocker(const std::string& why) {
  blockers_.push_back(why);
  section_["blockers"].push_back(why);
  sink_.on_message(MessageLevel::Error, why);
}

double ExperimentContext::cost_per_hour_of(const std::string& lane_id) const {
  for (const LaneRuntime* lane : all_lanes_)
    if (lane->plan.id == lane_id) return lane->plan.cost_per_hour;
  return 0;
}

record::ExperimentKind kind_of(const plan::Experiment& spec) {
  using K = record::ExperimentKind;
  return std::visit(
      record::Overloaded{
          [](const plan::ThroughputExperiment&) { return K::Throughput; },
          [](const plan::RegressionExperiment&) { return K::Regression; },
          [](const plan::ContextSweepExperiment&) { return K::ContextSweep; },
          [](const plan::PrefixCacheExperiment&) { return K::PrefixCache; },
          [](const plan::SpeculativeExperiment&) { return K::Speculative; },
          [](const plan::GatesExperiment&) { return K::Gates; },
          [](const plan::TraceExperiment&) { return K::Trace; },
          [](const plan::SampledRegressionExperiment&) { return K::SampledRegression; },
          [](const plan::SessionsExperiment&) { return K::Sessions; },
          [](const plan::CapacityExperiment&) { return K::Capacity; },
          [](const plan::DeterminismExperiment&) { return K::Determinism; }},
      spec.params);
}

std::unique_ptr<Experiment> make_experiment(const plan::Experiment& spec) {
  using Made = std::unique_ptr<Experiment>;
  return std::visit(
      record::Overloaded{
          [](const plan::ThroughputExperiment&) -> Made {
            return std::make_unique<ThroughputExperiment>();
          },
          [](const plan::RegressionExperiment&) -> Made {
            return std::make_unique<RegressionExperiment>();
          },
          [](const plan::ContextSweepExperiment&) -> Made {
            return std::make_unique<ContextSweepExperiment>();
          },
          [](const plan::PrefixCacheExperiment&) -> Made {
            return std::make_unique<PrefixCacheExperiment>();
          },
          [](const plan::SpeculativeExperiment&) -> Made {
            return std::make_unique<SpeculativeExperiment>();
          },
          [](const plan::GatesExperiment&) -> Made { return std::make_unique<GatesExperiment>(); },
          [](const plan::TraceExperiment&) -> Made { return std::make_unique<TraceExperiment>(); },
          [](const plan::SampledRegressionExperiment&) -> Made {
            return std::make_unique<SampledRegressionExperiment>();
          },
          [](const plan::SessionsExperiment&) -> Made {
            return std::make_unique<SessionsExperiment>();
          },
          [](const plan::CapacityExperiment&) -> Made {
            return std::make_unique<CapacityExperiment>();
          },
          [](const plan::DeterminismExperiment&) -> Made {
            return std::make_unique<DeterminismExperiment>();
          }},
      spec.params);
}

}  // namespace lb::run
