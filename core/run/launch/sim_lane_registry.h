#pragma once
// `sim:PROFILE` lanes are served by the built-in simulator. core must not link the simulator, so
// the composition root (app/) registers a starter here when the build has one; without it such
// lanes fail with a clear message instead of a link error.
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace lb::run {

struct SimLaneResult {
  std::string base_url;          // e.g. "http://127.0.0.1:41234/v1"; empty on failure
  std::shared_ptr<void> handle;  // keeps the simulator lane alive; released to stop it
  std::string error;             // why it could not start (empty on success)
};

// spec is what follows "sim:", e.g. "fp8?time_scale=0.05".
using SimLaneStarter = std::function<SimLaneResult(std::string_view spec)>;

void set_sim_lane_starter(SimLaneStarter starter);
bool sim_lanes_available();
// Starts a lane through the registered starter, or fails with a message naming the reason.
SimLaneResult start_sim_lane(std::string_view spec);

// "sim:fp8?x=1" -> true and spec "fp8?x=1".
bool is_sim_base_url(std::string_view base_url, std::string* spec = nullptr);

}  // namespace lb::run
