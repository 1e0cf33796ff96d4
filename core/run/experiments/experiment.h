#pragma once
// An Experiment is one entry of a plan's "experiments" list, run against its lanes. Each kind
// lives in its own file (throughput_experiment.cpp, regression_experiment.cpp, ...) and is made
// by make_experiment(); the runner owns everything else (lanes, run folder, /metrics snapshots,
// summary.json).
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/summary.h"
#include "core/metrics/summary_intervals.h"
#include "core/net/stream_client.h"
#include "core/plan/plan.h"
#include "core/record/experiment_kind.h"
#include "core/record/run_folder_writer.h"
#include "core/run/drive/load_driver.h"
#include "core/run/drive/split_barrier.h"
#include "core/run/experiments/phase_energy.h"
#include "core/run/lanes/lane_endpoint.h"
#include "core/run/lanes/lane_probe.h"
#include "core/run/run_sink.h"

namespace lb::run {

// A lane ready to measure: where it is, what it is, and (for sim: lanes) what keeps it alive.
struct LaneRuntime {
  plan::Lane plan;
  LaneEndpoint endpoint;
  ProbeReport probe;
  std::shared_ptr<void> sim_handle;
  // Synthetic prompt budgets (estimated tokens) found to make a target size as this lane's
  // /tokenize counts it, by target (synthetic_budget()).
  std::map<int64_t, int64_t> prompt_budgets;
};

// Each request's total time limit for the experiment (its request_timeout_s, else the plan's).
inline int64_t request_timeout_ms(const plan::Experiment& e) {
  return static_cast<int64_t>(e.request_timeout_s * 1000.0);
}

class ExperimentContext {
 public:
  ExperimentContext(net::StreamClient& client, RunSink& sink, record::RunFolderWriter& writer,
                    const std::atomic<bool>& stop, const plan::Experiment& spec,
                    std::vector<LaneRuntime*> lanes, nlohmann::json& section);

  net::StreamClient& client() { return client_; }
  RunSink& sink() { return sink_; }
  record::RunFolderWriter& writer() { return writer_; }
  const plan::Experiment& spec() const { return spec_; }
  const std::vector<LaneRuntime*>& lanes() const { return lanes_; }
  // Every lane of the experiment, also while a trial's turn runs on one of them (lanes()).
  const std::vector<LaneRuntime*>& all_lanes() const { return all_lanes_; }
  bool stopped() const { return stop_.load(); }
  const std::atomic<bool>& stop_flag() const { return stop_; }

  // Runs one phase: every finished request goes to requests.jsonl and the sink; the measured
  // ones are summarised into section["lanes"][lane]["phases"][phase], with the intervals of its
  // headline figures, and their values are kept for the comparison of lanes.
  PhaseOutcome run_phase(const LoadPhase& phase, const metrics::SloSpec& slo = {});
  // The same for a phase that another driver runs (e.g. SessionDriver): DRIVE runs the phase,
  // reporting to the sink it is given and handing every finished request to the handler.
  using PhaseDrive = std::function<PhaseOutcome(RunSink& sink, const LoadDriver::RecordHandler&)>;
  PhaseOutcome run_phase_with(const LoadPhase& phase, const PhaseDrive& drive,
                              const metrics::SloSpec& slo = {});
  // The phase as run_phase() would send it: trial number, event forwarding, trial header.
  LoadPhase prepared(const LoadPhase& phase) const;
  // The experiment's part of summary.json, for results beyond per-phase aggregates.
  nlohmann::json& section() { return section_; }
  void warn(const std::string& text) { sink_.on_message(MessageLevel::Warning, text); }
  // A finding that must fail the run (exit 1): a flipped fact, a failed gate.
  void flag_blocker(const std::string& why);
  const std::vector<std::string>& blockers() const { return blockers_; }
  // Every phase's per-request values, in the order the phases ran.
  const std::vector<metrics::PhaseSamples>& phase_samples() const { return phase_samples_; }
  void info(const std::string& text) { sink_.on_message(MessageLevel::Info, text); }
  // While set, phases record no energy, with this reason: the lane's GPUs also serve requests
  // the phase does not count (a background load). Empty again = measured as usual.
  void set_energy_not_measured(std::string why) { energy_not_measured_ = std::move(why); }
  // In a client of a split lane: where its phases meet the other clients' (prepared() sends only
  // this client's share of each phase's requests, starting with the others).
  void set_split_barrier(std::shared_ptr<SplitBarrier> barrier) {
    split_barrier_ = std::move(barrier);
  }

  // Repeated trials (core/run/experiments/trial_runner.h): the phases that follow belong to trial
  // `trial` (0-based) of `trials` and run on `lanes` only. With trials > 1 a phase run again in a
  // later trial is pooled with its earlier runs: its summary covers every trial's requests, its
  // intervals are over the per-trial figures (metrics/trial_intervals.h), and each trial's figures
  // are kept.
  void begin_trial(int64_t trial, int64_t trials, std::vector<LaneRuntime*> lanes);
  int64_t trial() const { return trial_; }
  int64_t trials() const { return trials_; }
  // Mixed into an experiment's prompt seed, so that every trial sends prompts of its own: a
  // later trial must not find an earlier one's prompts in the server's prefix cache. 0 for the
  // first trial, whose prompts are those of a run without trials.
  uint64_t trial_salt() const {
    return trial_ == 0 ? 0 : 0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(trial_);
  }
  // Takes in what a context run on other threads measured (lanes run in parallel): its phases'
  // values, its blockers, and its part of summary.json.
  void absorb(ExperimentContext& other);
  // Kinds other than the regression with "logprobs": K keep every request's per-token logprobs
  // in logprobs/<lane>.jsonl (logprobs/<lane>.<experiment>.jsonl when an earlier experiment of
  // the run holds that name), one line per request in finishing order: {"i": request index,
  // "id": phase, ...} as logprobs/logprob_lines.h writes them; summary lanes.<id>.logprobs.
  void keep_logprobs(const LoadPhase& phase, const PhaseOutcome& outcome);

 private:
  struct LogprobFile {
    std::string path;
    std::string lines;
    int64_t requests = 0, with_logprobs = 0, tokens = 0;
    std::string note;  // why a request had none (the first such)
  };
  std::map<std::string, LogprobFile> logprob_files_;  // by lane id
  struct PooledPhase;
  // The lane's cost_per_hour (0 when not given or not one of the experiment's lanes).
  double cost_per_hour_of(const std::string& lane_id) const;
  // In a client of a split lane, a phase on that lane: this client's share of it, started when
  // all the lane's clients have met (split_barrier.h).
  void join_split(LoadPhase& phase);
  // The meter of the phase's lane, for run_phase() to start when the warm-ups are done.
  std::unique_ptr<PhaseEnergyMeter> energy_meter_for(const LoadPhase& phase) const;
  void record_trial_phase(const LoadPhase& phase, const PhaseOutcome& outcome,
                          const metrics::SloSpec& slo, int64_t warmups,
                          const PhaseEnergyMeter& energy);

  net::StreamClient& client_;
  RunSink& sink_;
  record::RunFolderWriter& writer_;
  const std::atomic<bool>& stop_;
  const plan::Experiment& spec_;
  std::vector<LaneRuntime*> lanes_;
  std::vector<LaneRuntime*> all_lanes_;
  nlohmann::json& section_;
  std::vector<std::string> blockers_;
  std::vector<metrics::PhaseSamples> phase_samples_;
  int64_t trial_ = 0;
  int64_t trials_ = 1;
  std::map<std::pair<std::string, std::string>, std::shared_ptr<PooledPhase>> pooled_;
  // Set by run_phase() for run_phase_with(): started when the measured requests begin.
  std::unique_ptr<PhaseEnergyMeter> energy_meter_;
  std::string energy_not_measured_;
  std::shared_ptr<SplitBarrier> split_barrier_;
};

class Experiment {
 public:
  virtual ~Experiment() = default;
  virtual void run(ExperimentContext& ctx) = 0;
};

// nullptr when the kind has no implementation in this build.
std::unique_ptr<Experiment> make_experiment(const plan::Experiment& spec);
// The experiment's kind, from the type of its parameters.
record::ExperimentKind kind_of(const plan::Experiment& spec);

}  // namespace lb::run
