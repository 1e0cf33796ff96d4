#pragma once
// A closed-loop level's steady state, as summary.json records it ("steady_state" in a phase,
// docs/metrics.md "Steady state"): the window in which the level's streams were in flight, the
// figures over it, and whether each drifted. Read tolerantly: a member of another type reads as
// absent (NaN, "" or nullopt), never a throw.
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace lb::record {

// A figure's trend across the window (Mann-Kendall over ten intervals).
struct DriftRecord {
  std::string verdict;  // "flat", "drifting up", "drifting down", ...
  double change = NAN;  // relative change across the window: 0.12 for +12 %
  bool drifting() const { return verdict.rfind("drifting", 0) == 0; }
};

struct SteadyStateRecord {
  bool found = false;
  std::string rule;                                   // "in flight" or "trimmed"
  std::string why;                                    // why none was found
  double threshold = NAN;                             // streams in flight that count as steady
  std::optional<std::pair<double, double>> window_s;  // from the phase's first send
  double phase_duration_s = NAN;
  double requests_started = NAN;
  double output_throughput = NAN;  // tok/s over the completions in the window
  double median_ttft_ms = NAN, p99_ttft_ms = NAN;
  double median_tpot_ms = NAN, p99_tpot_ms = NAN;
  bool short_window = false;
  DriftRecord ttft_drift, tpot_drift, output_drift;
};

// A phase's "steady_state" object; nullopt when it is not an object.
std::optional<SteadyStateRecord> read_steady_state(const nlohmann::json& steady);

}  // namespace lb::record
