#pragma once
// Deterministic long texts, the same as scripts/gen_difflib_goldens.py's generated_pair(), so
// goldens for 150 KB texts store a seed instead of the texts.
#include <cstdint>
#include <string>
#include <utility>

namespace lb::compare::testing {

std::pair<std::string, std::string> generated_pair(uint64_t seed, int words, int mutation_permille);
std::string fnv1a64_hex(const std::string& text);

}  // namespace lb::compare::testing
