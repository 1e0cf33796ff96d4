#include "core/run/launch/launched_lanes.h"

#include <algorithm>

#include "core/run/lanes/lane_preparation.h"
#include "core/run/launch/managed_server.h"

namespace lb::run {
namespace {

// Probes the ready server like any lane; returns an error or "".
std::string run_on_server(const plan::Plan& plan, ManagedServer& server, net::StreamClient& client,
                          RunSink& sink, const std::atomic<bool>& stop,
                          const LaunchedLanesHooks& hooks, const plan::Environment& env) {
  plan::Plan single;
  single.name = plan.name;
  single.lanes = {server.lane()};
  LanePreparation prep = prepare_lanes(single, client, sink, stop, env);
  if (!prep.errors.empty()) return prep.errors.front();
  LaneRuntime& lane = prep.lanes.front();
  if (hooks.on_ready) hooks.on_ready(lane);
  for (size_t i = 0; i < plan.experiments.size() && !stop.load(); ++i)
    if (plan.experiments[i].runs_on(lane.plan.id)) hooks.run_experiment(i, lane);
  return {};
}

}  // namespace

plan::Plan without_launched_lanes(plan::Plan plan) {
  plan.lanes.erase(std::remove_if(plan.lanes.begin(), plan.lanes.end(),
                                  [](const plan::Lane& l) { return l.launch.has_value(); }),
                   plan.lanes.end());
  return plan;
}

std::vector<std::string> run_launched_lanes(const plan::Plan& plan, const std::string& run_dir,
                                            net::StreamClient& client, RunSink& sink,
                                            const std::atomic<bool>& stop,
                                            const LaunchedLanesHooks& hooks,
                                            const plan::Environment& env) {
  std::vector<std::string> failures;
  for (const plan::Lane& lane : plan.lanes) {
    if (!lane.launch) continue;
    if (stop.load()) break;
    ManagedServer server(lane, run_dir, sink, client, stop, env);
    std::string error;
    if (server.start()) {
      if (hooks.on_record) hooks.on_record(lane.id, server.record());
      error = run_on_server(plan, server, client, sink, stop, hooks, env);
    } else {
      error = server.error();
    }
    server.stop();
    nlohmann::json record = server.record();
    if (!error.empty() && !stop.load()) {
      sink.on_message(MessageLevel::Error, error);
      failures.push_back(error.substr(0, error.find('\n')));
      if (!record.contains("error")) record["error"] = error;
      if (record.value("status", "") == "stopped") {
        record["status"] = "failed";  // it ran, but the lane could not be probed
        ServerState state;
        state.lane_id = lane.id;
        state.phase = ServerState::Phase::Failed;
        state.command = record.value("command", "");
        state.error = record.value("error", "");
        sink.on_server_state(state);
      }
    }
    if (!stop.load() && record.value("status", "") == "exited")
      failures.push_back(record["error"].get<std::string>());
    if (hooks.on_record) hooks.on_record(lane.id, record);
  }
  return failures;
}

}  // namespace lb::run
