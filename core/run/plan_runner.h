#pragma once
// PlanRunner executes a validated plan: prepares the lanes, writes plan.json and
// environment.json, runs each experiment with /metrics snapshots before and after it, and keeps
// summary.json current after every experiment, so an interrupted run still leaves a usable folder.
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/summary_intervals.h"
#include "core/plan/plan.h"
#include "core/record/experiment_kind.h"
#include "core/run/run_sink.h"
#include "core/run/shard_selection.h"

namespace lb::run {

struct RunOptions {
  std::string out_dir;
  std::string client_version = "0";
  // Add the plan's experiments to the run already in out_dir (core/run/folder/run_append.h) instead
  // of starting a new run there.
  bool append = false;
  // Lanes with a launch block start programs: a plan with any runs only when the user allowed it
  // (lanebench-cli run --allow-launch); otherwise the run does not start.
  bool allow_launch = false;
  // Where lanes' API keys are read and what managed servers inherit. Tests fill their own, so
  // none changes the process environment while the run's threads read it.
  plan::Environment environment = plan::Environment::of_process();
  // Run one shard of the plan (core/run/shard_selection.h) into a new folder: its lane only, no
  // comparisons of lanes, performance gates or sweep table (a merge makes them), and shard.json.
  std::optional<ShardSpec> shard;
  // A client of a split lane (plan "split"): the folder every client of the lane can see, where
  // they meet at each phase's start (core/run/drive/split_barrier.h). Empty = the folder that
  // out_dir is in.
  std::string split_sync_dir;
};

// Exit codes shared with the CLI.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;  // a gate failed or a blocker was found
inline constexpr int kExitInput = 2;   // usage or input error (plan, arguments, out dir)
// A lane's server did not answer its probe as it must (not reachable, refused the key, another
// model). Unlike 2, trying again later may help (a server still starting).
inline constexpr int kExitLanes = 3;
inline constexpr int kExitInterrupted = 130;

struct RunResult {
  int exit_code = kExitOk;
  bool interrupted = false;
  std::vector<std::string> errors;  // why the run could not start or what failed
  nlohmann::json summary;           // what summary.json holds
  int64_t requests_written = 0;     // lines in requests.jsonl
};

class PlanRunner {
 public:
  PlanRunner(plan::Plan plan, RunOptions options, RunSink& sink);
  // Blocks until the run ends. Setting `stop` cancels in-flight requests and ends the run early,
  // keeping everything that finished.
  RunResult run(const std::atomic<bool>& stop);

 private:
  plan::Plan plan_;
  RunOptions options_;
  RunSink& sink_;
};

// Each candidate lane's figures against the first lane's, on every phase both ran, into
// section["comparisons"], for the kinds that compare speed (not regression or gates). IDS in plan
// order; SAMPLES of every lane the experiment ran on. Also what a merge of shards recomputes.
void add_lane_comparisons(record::ExperimentKind kind, const std::vector<std::string>& ids,
                          const std::vector<metrics::PhaseSamples>& samples,
                          nlohmann::json& section);

// Whether DIR can take a new run: it does not exist, or it is empty. Fills why when not.
bool run_folder_usable(const std::string& dir, std::string* why);

}  // namespace lb::run
