#pragma once
// The steady-state window of a closed-loop phase (docs/metrics.md, "Steady state"): figures over a
// whole run include its ramp-up (streams still starting) and its drain (the last requests
// finishing alone). The window runs from the first time the requests in flight reach the
// threshold max(1, ceil(fraction x target concurrency)) to the last time they fall below it;
// TTFT and TPOT are taken over the requests sent in it, throughput over the completions in it.
// A window shorter than max(10 s, 10 % of the phase) is flagged short.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/percentile.h"
#include "core/metrics/request_record.h"
#include "core/metrics/request_row.h"
#include "core/metrics/trend_test.h"

namespace lb::metrics {

constexpr int kSteadyIntervals = 10;

// An open-loop phase's warm-up and cool-down (docs/metrics.md, "Steady state"): its window starts
// warmup_s after the first send and after the first warmup_requests sends, and ends cooldown_s
// before the last send and before the last cooldown_requests sends.
struct OpenLoopTrim {
  double warmup_s = 0;
  double cooldown_s = 0;
  int64_t warmup_requests = 0;
  int64_t cooldown_requests = 0;
  bool any() const {
    return warmup_s > 0 || cooldown_s > 0 || warmup_requests > 0 || cooldown_requests > 0;
  }
};

struct SteadyState {
  bool found = false;                // a window was found (threshold reached, or a trimmed span)
  std::optional<OpenLoopTrim> trim;  // set for an open-loop phase's trimmed window
  int64_t target = 0;                // the phase's concurrency
  double fraction = 0.95;            // of the target that counts as steady
  int64_t threshold = 0;             // requests in flight that count as steady
  double start_s = 0;                // from the phase's first send
  double end_s = 0;                  // idem
  double phase_s = 0;                // first send to last completion of the phase
  int64_t requests_started = 0;      // sent in the window (their TTFT and TPOT below)
  int64_t completions = 0;           // completed in the window (the throughputs below)
  double request_throughput = 0;     // completions / window, req/s
  double output_throughput = 0;      // their output tokens / window, tok/s
  Distribution ttft_ms;
  Distribution tpot_ms;
  bool short_window = false;  // shorter than max(10 s, 10 % of the phase)
  // Drift over the window, from kSteadyIntervals equal intervals: the median TTFT and TPOT of
  // the requests sent in each, and the output tokens completed in each per second.
  TrendResult ttft_trend;
  TrendResult tpot_trend;
  TrendResult output_trend;

  double duration_s() const { return end_s - start_s; }
};

// Each request's send (+1) and completion (-1) in time order, for counting the requests in
// flight: a completion sorts before a send at the same instant (a request ending as another
// starts does not overlap it). Warm-ups, requests without a send stamp, and requests ending
// before it are left out.
std::vector<std::pair<int64_t, int>> in_flight_steps(const std::vector<RequestRow>& rows);

// Over the phase's measured requests (warm-ups left out); FRACTION in (0, 1].
SteadyState steady_state(const std::vector<RequestRecord>& records, int64_t target_concurrency,
                         double fraction = 0.95);

// An open-loop phase's window as TRIM leaves it, with the same figures.
SteadyState trimmed_state(const std::vector<RequestRecord>& records, const OpenLoopTrim& trim);

// The same over the requests' rows (a spooled phase's, RecordSpool::rows()).
SteadyState steady_state_of(const std::vector<RequestRow>& rows, int64_t target_concurrency,
                            double fraction = 0.95);
SteadyState trimmed_state_of(const std::vector<RequestRow>& rows, const OpenLoopTrim& trim);

// {"window_s": [start, end], "rule": "in flight" or "trimmed", "threshold": n, "requests_started":
// ..., "short": bool, ...}; when no window was found, {"found": false, "threshold": n} and why.
nlohmann::json to_json(const SteadyState& s);

}  // namespace lb::metrics
