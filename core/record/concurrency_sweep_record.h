#pragma once
// A throughput experiment's concurrency sweep on one lane, as summary.json records it
// ("concurrency_sweep" in the lane's section, docs/metrics.md): where the knee is (the last level
// before aggregate output stopped gaining min_gain) and, for a doubling sweep, where and why it
// stopped. Read tolerantly: a member of another type reads as absent, never a throw.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

// One level of the sweep: its closed-loop figures (NaN where it had none) and what it gained.
struct SweepLevelRecord {
  int64_t concurrency = 0;
  int64_t completed = 0;
  int64_t errors = 0;
  bool interrupted = false;
  double output_tok_s = NAN;  // aggregate over the level's measured requests
  double decode_tok_s_median = NAN;
  double ttft_p50_ms = NAN, ttft_p99_ms = NAN;
  double e2el_p50_ms = NAN, e2el_p99_ms = NAN;
  double output_tok_s_gain = NAN;  // over the level before, as a fraction
  double e2el_p99_growth = NAN;    // how much the tail latency grew for that gain
};

struct ConcurrencySweepRecord {
  std::string mode;  // "list" (the plan's levels) or "doubling"
  double min_gain = 0;
  std::vector<SweepLevelRecord> levels;
  std::optional<long long> knee_concurrency;
  std::string knee_rule;  // the rule in words
  double knee_output_tok_s = NAN;
  double knee_e2el_p99_ms = NAN;
  bool knee_reached = false;  // false: output still gained at the last level measured
  std::optional<long long> stopped_at;
  std::string stop_reason;  // "gain_below_min", "errors", "max_concurrency", ...
  std::string stop_detail;  // the run's sentence for people
};

// A lane's "concurrency_sweep" object; nullopt when it is not an object. Levels that are not
// objects are left out.
std::optional<ConcurrencySweepRecord> read_concurrency_sweep(const nlohmann::json& sweep);
nlohmann::json to_json(const ConcurrencySweepRecord& sweep);

}  // namespace lb::record
