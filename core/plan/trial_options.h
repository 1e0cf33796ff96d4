#pragma once
// Repeated trials of a performance experiment, the order its lanes run in, and the performance
// gates judged on the lanes' comparisons (docs/plan-file.md, docs/metrics.md).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lb::plan {

// sequential: every trial of the first lane, then of the next (one trial: the lanes one after
// the other). interleaved: trial 1 of every lane, then trial 2 of every lane (A B A B ...), so
// drift of the machine or the server hits every lane alike. parallel: every lane at the same
// time, trial by trial, for lanes on separate hardware.
enum class LaneOrder { Sequential, Interleaved, Parallel };
const char* to_string(LaneOrder order);  // "sequential", "interleaved", "parallel"
std::optional<LaneOrder> parse_lane_order(std::string_view name);

// A lane-pair gate on one figure: candidate / baseline must be at least min_ratio (or at most
// max_ratio), judged on the ratio's interval: pass when the whole interval clears the threshold,
// fail when it lies wholly on the wrong side, inconclusive otherwise.
// Plan file: {"figure": "median_decode_tok_s", "candidate": "fp8", "baseline": "bf16",
//             "min_ratio": 0.98, "phase": "c1"}.
struct PerformanceGate {
  std::string figure;  // a summary figure key: median_decode_tok_s, output_throughput, ...
  std::string candidate;
  std::string baseline;
  std::string phase;      // empty = every phase both lanes ran
  double min_ratio = -1;  // > 0 when set
  double max_ratio = -1;  // > 0 when set (exactly one of the two is set)
};

}  // namespace lb::plan
