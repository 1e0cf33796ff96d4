#pragma once
// An Experiment is one entry of a plan's "experiments" list, run against its lanes. Each kind
// lives in its own file (throughput_experiment.cpp, regression_experiment.cpp, ...) and is made
// by make_experiment(); the runner owns everything else (lanes, run folder, /metrics snapshots,
// summary.json).
#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "metrics/summary.h"
#include "metrics/summary_intervals.h"
#include "net/stream_client.h"
#include "plan/plan.h"
#include "run/lane_endpoint.h"
#include "run/lane_probe.h"
#include "run/load_driver.h"
#include "run/run_folder_writer.h"
#include "run/run_sink.h"

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

class ExperimentContext {
 public:
  ExperimentContext(net::StreamClient& client, RunSink& sink, RunFolderWriter& writer,
                    const std::atomic<bool>& stop, const plan::Experiment& spec,
                    std::vector<LaneRuntime*> lanes, nlohmann::json& section);

  net::StreamClient& client() { return client_; }
  RunSink& sink() { return sink_; }
  RunFolderWriter& writer() { return writer_; }
  const plan::Experiment& spec() const { return spec_; }
  const std::vector<LaneRuntime*>& lanes() const { return lanes_; }
  bool stopped() const { return stop_.load(); }
  // Every phase then reports each generated event to the sink (live charts).
  void set_forward_events(bool on) { forward_events_ = on; }

  // Runs one phase: every finished request goes to requests.jsonl and the sink; the measured
  // ones are summarised into section["lanes"][lane]["phases"][phase], with the intervals of its
  // headline figures, and their values are kept for the comparison of lanes.
  PhaseOutcome run_phase(const LoadPhase& phase, const metrics::SloSpec& slo = {});
  // The experiment's part of summary.json, for results beyond per-phase aggregates.
  nlohmann::json& section() { return section_; }
  void warn(const std::string& text) { sink_.on_message(MessageLevel::Warning, text); }
  // A finding that must fail the run (exit 1): a flipped fact, a failed gate.
  void flag_blocker(const std::string& why);
  const std::vector<std::string>& blockers() const { return blockers_; }
  // Every phase's per-request values, in the order the phases ran.
  const std::vector<metrics::PhaseSamples>& phase_samples() const { return phase_samples_; }
  void info(const std::string& text) { sink_.on_message(MessageLevel::Info, text); }

 private:
  net::StreamClient& client_;
  RunSink& sink_;
  RunFolderWriter& writer_;
  const std::atomic<bool>& stop_;
  const plan::Experiment& spec_;
  std::vector<LaneRuntime*> lanes_;
  nlohmann::json& section_;
  std::vector<std::string> blockers_;
  std::vector<metrics::PhaseSamples> phase_samples_;
  bool forward_events_ = false;
};

class Experiment {
 public:
  virtual ~Experiment() = default;
  virtual void run(ExperimentContext& ctx) = 0;
};

// nullptr when the kind has no implementation in this build.
std::unique_ptr<Experiment> make_experiment(const plan::Experiment& spec);

}  // namespace lb::run
