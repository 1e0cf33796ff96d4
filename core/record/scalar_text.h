#pragma once
// A scalar a server or a user wrote (a note, a cache setting, a version) as one line of text:
// a string as it is, true/false as "yes"/"no", a whole number in full, another number to two
// decimals; anything else as compact JSON.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace lb::record {

std::string scalar_text(const nlohmann::json& value);

// An object's members as (key, scalar_text(value)) in the object's order; none when VALUE is
// not an object.
std::vector<std::pair<std::string, std::string>> scalar_members(const nlohmann::json& value);

}  // namespace lb::record
