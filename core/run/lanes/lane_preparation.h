#pragma once
// Turns a plan's lanes into lanes ready to measure: starts sim: lanes, resolves the endpoint and
// the API key (from the named environment variable, memory only), probes the server and fills
// `model: auto` from /v1/models.
#include <atomic>
#include <string>
#include <vector>

#include "core/net/stream_client.h"
#include "core/plan/plan.h"
#include "core/run/experiments/experiment.h"
#include "core/run/run_sink.h"

namespace lb::run {

struct LanePreparation {
  std::vector<LaneRuntime> lanes;   // in plan order; complete only when errors is empty
  std::vector<std::string> errors;  // one per lane that cannot be used, naming the lane
  // Every error is a lane's server that did not answer its probe as it must (not a lane the plan
  // or the environment left unusable: no key, a key that may not be sent): a later try may work.
  bool only_servers_failed = true;
};

// API keys are read from `env` (or the keyring, plan/api_key_source.h).
LanePreparation prepare_lanes(const plan::Plan& plan, net::StreamClient& client, RunSink& sink,
                              const std::atomic<bool>& stop, const plan::Environment& env);

}  // namespace lb::run
