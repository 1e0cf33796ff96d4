#include "sim_lane_starter.h"

#include <memory>

#include "core/run/launch/sim_lane_registry.h"
#include "sim/sim_lane.h"

namespace lb::app {

void register_sim_lane_starter() {
  run::set_sim_lane_starter([](std::string_view spec) {
    sim::LaneStart started = sim::start_lane(spec);
    run::SimLaneResult result;
    result.error = started.error;
    if (started.error.empty()) {
      result.base_url = started.base_url;
      // The handle keeps the lane's server alive; releasing it stops the lane.
      result.handle = std::make_shared<sim::LaneHandle>(std::move(started.handle));
    }
    return result;
  });
}

}  // namespace lb::app
