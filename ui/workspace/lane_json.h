#pragma once
// Lanes to and from JSON in the plan file's lane format (the same keys parse_plan reads).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "plan/plan.h"

namespace lb::ui {

nlohmann::json lane_to_json(const plan::Lane& lane);
// Reads one lane; unknown keys are kept out, a missing id or base_url is an error naming it.
bool lane_from_json(const nlohmann::json& value, plan::Lane* lane, std::string* error);
// Fills sim_profile / sim_options from a "sim:PROFILE?k=v&..." base_url (cleared otherwise).
void fill_sim_fields(plan::Lane& lane);

}  // namespace lb::ui
