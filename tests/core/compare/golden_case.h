#pragma once
// Runs one difflib golden case (tests/fixtures/difflib/*.json, or the live python3 check) through
// lb::compare and describes the first disagreement.
#include <string>

#include <nlohmann/json.hpp>

namespace lb::compare::testing {

// Empty when lb::compare agrees with CPython on lengths, matching blocks, opcodes and the ratio's
// bits; otherwise what differs. `a` and `b` are the texts (UTF-8).
std::string check_golden_case(const nlohmann::json& golden, const std::string& a,
                              const std::string& b);

nlohmann::json read_json_file(const std::string& path);

}  // namespace lb::compare::testing
