#pragma once
// environment.json: what was measured with what. The client build, the OS, and for each lane
// what its server said about itself (/v1/models, /version, health, /metrics families, KV cache
// configuration) next to the user's notes. Never a key; insecure TLS is labelled.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/run/experiments/experiment.h"

namespace lb::run {

nlohmann::json client_environment_json(const std::string& client_version);
nlohmann::json lane_environment_json(const LaneRuntime& lane);
nlohmann::json environment_json(const std::vector<LaneRuntime>& lanes,
                                const std::string& client_version);

// UTC wall-clock time as ISO 8601 ("2026-11-29T21:46:33Z"), for labels only (never for timing).
std::string utc_now_iso8601();

}  // namespace lb::run
