#pragma once
// Lanes to and from a workspace's lanes.json, in the plan file's lane format: the writer is the
// plan's own (plan::lane_to_json), so every field a lane has is kept, and parse_plan reads it.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/plan/plan.h"

namespace lb::ui {

// A lane's launch block goes along as the plan file writes it. Secret env values never do: a
// variable marked secret holds only its keyring reference (plan/api_key_source.h), and a
// secret-named variable (plan/launch_spec.h) with a value typed in is written empty.
nlohmann::json lane_to_json(const plan::Lane& lane);
// Reads one lane; unknown keys are kept out, a missing id or base_url is an error naming it.
bool lane_from_json(const nlohmann::json& value, plan::Lane* lane, std::string* error);
// Fills sim_profile / sim_options from a "sim:PROFILE?k=v&..." base_url (cleared otherwise).
void fill_sim_fields(plan::Lane& lane);

}  // namespace lb::ui
