#pragma once
// A throughput experiment's concurrency sweep on one lane, as summary.json records it
// ("concurrency_sweep" in the lane's section, docs/metrics.md): where the knee is (the last level
// before aggregate output stopped gaining min_gain) and, for a doubling sweep, where and why it
// stopped. Read tolerantly: a member of another type reads as absent, never a throw.
#include <cmath>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace lb::record {

struct ConcurrencySweepRecord {
  std::string mode;  // "list" (the plan's levels) or "doubling"
  double min_gain = 0;
  std::optional<long long> knee_concurrency;
  double knee_output_tok_s = NAN;
  double knee_e2el_p99_ms = NAN;
  bool knee_reached = false;  // false: output still gained at the last level measured
  std::optional<long long> stopped_at;
  std::string stop_reason;  // "gain_below_min", "errors", "max_concurrency", ...
  std::string stop_detail;  // the run's sentence for people
};

// A lane's "concurrency_sweep" object; nullopt when it is not an object.
std::optional<ConcurrencySweepRecord> read_concurrency_sweep(const nlohmann::json& sweep);

}  // namespace lb::record
