#pragma once
// Tolerant reads of a run folder's files: a run killed early or an older folder may lack any
// field, and a report must still come out, with "n/a" where a figure is missing.
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::report {

// The value at a path of object keys; a static null when any step is missing.
const nlohmann::json& json_at(const nlohmann::json& root, std::initializer_list<const char*> path);
// A number at the path, or fallback (-1) when absent or not a number. A {"value": x} label
// (figure with provenance) yields x.
double number_at(const nlohmann::json& root, std::initializer_list<const char*> path,
                 double fallback = -1);
std::string string_at(const nlohmann::json& root, std::initializer_list<const char*> path);
// "c32" -> 32; -1 when the name is not a concurrency level.
long long concurrency_of(const std::string& phase);
// An object's keys with concurrency levels in numeric order (c1, c4, c16), others after them.
std::vector<std::string> keys_by_concurrency(const nlohmann::json& object);

}  // namespace lb::report
