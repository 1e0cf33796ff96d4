#pragma once
// A candidate's differences from the baseline judged against the baseline's own determinism
// floor (docs/determinism.md): are the candidate's answers different more often than the
// baseline's answers differ from themselves? One-sided Fisher exact test on the 2x2 table
// (candidate differing / same, baseline flipped / same); "above the floor" at p < alpha.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace lb::compare {

struct FloorVerdict {
  int64_t differing = 0, compared = 0;          // candidate against the baseline
  int64_t floor_flips = 0, floor_compared = 0;  // the baseline against itself
  double p_value = 1.0;
  double alpha = 0.05;
  bool judged = false;  // both sides compared something
  bool above = false;
  std::string test = "one-sided Fisher exact test";
};

// P(X >= a) for X hypergeometric: a of the K "different" answers fall among the candidate's
// n1 of N = n1 + n2 answers. 1 when a is 0 or any count is invalid.
double fisher_exact_greater(int64_t a, int64_t n1, int64_t b, int64_t n2);

FloorVerdict judge_against_floor(int64_t differing, int64_t compared, int64_t floor_flips,
                                 int64_t floor_compared, double alpha = 0.05);

// "above the floor", "within the floor", or "not judged" when either side compared nothing.
const char* verdict_name(const FloorVerdict& v);
// One line: "within the floor: 1 of 20 answers differ against 2 of 20 on the baseline alone
// (one-sided Fisher exact test, p = 0.885)".
std::string verdict_text(const FloorVerdict& v);
nlohmann::json to_json(const FloorVerdict& v);

}  // namespace lb::compare
