#pragma once
// A workspace lane on the built-in simulator, as the lane dialog would make it, for the GUI tests
// that run experiments end to end.
#include <string>

#include "core/plan/plan.h"
#include "ui/workspace/lane_json.h"

namespace lb::test {

// Lane ID on simulator PROFILE, every modelled duration times TIME_SCALE (e.g. "0.02").
inline plan::Lane sim_test_lane(const std::string& id, const std::string& profile,
                                const std::string& time_scale) {
  plan::Lane lane;
  lane.id = id;
  lane.base_url = "sim:" + profile + "?time_scale=" + time_scale;
  ui::fill_sim_fields(lane);
  return lane;
}

}  // namespace lb::test
