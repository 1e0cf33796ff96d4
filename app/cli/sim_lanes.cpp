#include "sim_lanes.h"

#include <memory>

#include "core/run/launch/sim_lane_registry.h"
#ifdef LANEBENCH_HAVE_SIM
#include "sim/sim_lane.h"
#endif

namespace lb::cli {

void register_sim_lanes() {
#ifdef LANEBENCH_HAVE_SIM
  run::set_sim_lane_starter([](std::string_view spec) {
    sim::LaneStart start = sim::start_lane(spec);
    run::SimLaneResult result;
    result.error = std::move(start.error);
    result.base_url = std::move(start.base_url);
    if (result.error.empty())
      result.handle = std::make_shared<sim::LaneHandle>(std::move(start.handle));
    return result;
  });
#endif
}

}  // namespace lb::cli
