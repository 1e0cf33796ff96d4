#include "core/run/launch/sim_lane_registry.h"

#include <mutex>

namespace lb::run {
namespace {
std::mutex& starter_mutex() {
  static std::mutex m;
  return m;
}
SimLaneStarter& starter_slot() {
  static SimLaneStarter s;
  return s;
}
}  // namespace

void set_sim_lane_starter(SimLaneStarter starter) {
  std::lock_guard lock(starter_mutex());
  starter_slot() = std::move(starter);
}

bool sim_lanes_available() {
  std::lock_guard lock(starter_mutex());
  return static_cast<bool>(starter_slot());
}

SimLaneResult start_sim_lane(std::string_view spec) {
  SimLaneStarter starter;
  {
    std::lock_guard lock(starter_mutex());
    starter = starter_slot();
  }
  if (!starter) {
    SimLaneResult r;
    r.error =
        "the built-in simulator is not available in this build (lane 'sim:" + std::string(spec) +
        "'); point base_url at a running server instead";
    return r;
  }
  SimLaneResult r = starter(spec);
  if (r.error.empty() && r.base_url.empty()) r.error = "the simulator returned no address";
  return r;
}

bool is_sim_base_url(std::string_view base_url, std::string* spec) {
  constexpr std::string_view prefix = "sim:";
  if (base_url.substr(0, prefix.size()) != prefix) return false;
  if (spec) *spec = std::string(base_url.substr(prefix.size()));
  return true;
}

}  // namespace lb::run
