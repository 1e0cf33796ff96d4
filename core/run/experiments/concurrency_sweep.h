#pragma once
// The figures of a closed-loop concurrency sweep, level by level, the rule that stops a doubling
// sweep and the latency-throughput knee. Pure functions of the measured levels, so the rules are
// tested without a server.
//
// Knee rule: walking the levels in order, the knee is the last level before the first one whose
// aggregate output tok/s gains less than min_gain over its predecessor (or that had errors):
// beyond it, more concurrency buys queueing and latency, not throughput. When every level gained,
// the knee is the last level and "reached" is false: the sweep never saw throughput flatten.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/metrics/summary.h"
#include "core/plan/plan.h"
#include "core/record/concurrency_sweep_record.h"

namespace lb::run {

struct LevelFigures {
  int64_t concurrency = 0;
  int64_t completed = 0;
  int64_t errors = 0;
  bool interrupted = false;
  double output_tok_s = 0;  // aggregate over the level's measured requests
  double decode_tok_s_median = -1;
  double ttft_p50_ms = -1, ttft_p99_ms = -1;
  double e2el_p50_ms = -1, e2el_p99_ms = -1;
};

LevelFigures level_figures(int64_t concurrency, const metrics::LaneSummary& summary, int64_t errors,
                           bool interrupted);

// Aggregate output tok/s gain of levels[i] over levels[i-1] as a fraction; nullopt for the first
// level or when the previous level produced nothing.
std::optional<double> throughput_gain(const std::vector<LevelFigures>& levels, size_t i);

struct SweepStop {
  std::string reason;  // "gain_below_min", "errors", "no_completions", "max_concurrency",
                       // "interrupted"
  int64_t at_concurrency = 0;
  std::string detail;  // a sentence for people
};

// Whether a doubling sweep stops after its last measured level; nullopt = run `next`.
std::optional<SweepStop> doubling_stop(const std::vector<LevelFigures>& levels,
                                       const plan::ConcurrencyDoubling& doubling, int64_t next);

// Index of the knee in `levels` (see the rule above); nullopt when no level completed anything.
std::optional<size_t> knee_index(const std::vector<LevelFigures>& levels, double min_gain);

// The sweep as summary.json records it: its levels with their gains, the knee and the stop.
record::ConcurrencySweepRecord sweep_record(const std::vector<LevelFigures>& levels,
                                            double min_gain, const std::string& mode,
                                            const std::optional<SweepStop>& stop);

}  // namespace lb::run
