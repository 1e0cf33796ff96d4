#pragma once
// The managed lanes' part of a run. Lanes with a launch block run one at a time, in plan order,
// after the plan's other lanes: each server is started, the lane is probed like any other, every
// experiment that names the lane runs on it, and the server is stopped before the next one
// starts, so two servers never compete for one GPU. A server that cannot start, exits early or
// is not ready in time is reported by name, and the run goes on with the next lane.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/net/stream_client.h"
#include "core/plan/plan.h"
#include "core/run/experiments/experiment.h"
#include "core/run/run_sink.h"

namespace lb::run {

struct LaunchedLanesHooks {
  // The lane is ready and probed (for environment.json).
  std::function<void(const LaneRuntime&)> on_ready;
  // Runs experiment `index` of the plan on the lane.
  std::function<void(size_t index, LaneRuntime&)> run_experiment;
  // A server's record changed (for summary.json's "servers").
  std::function<void(const std::string& lane_id, const nlohmann::json& record)> on_record;
};

// Returns one error per lane whose server failed, naming the lane.
// Keys and the servers' inherited environment come from `env`.
std::vector<std::string> run_launched_lanes(const plan::Plan& plan, const std::string& run_dir,
                                            net::StreamClient& client, RunSink& sink,
                                            const std::atomic<bool>& stop,
                                            const LaunchedLanesHooks& hooks,
                                            const plan::Environment& env);

// The plan without its managed lanes (those are prepared by run_launched_lanes).
plan::Plan without_launched_lanes(plan::Plan plan);

}  // namespace lb::run
