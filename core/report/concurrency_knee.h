#pragma once
// A throughput experiment's concurrency sweep, per lane, as people read it: where the knee is
// (the last level before aggregate output stopped gaining min_gain) and, for a doubling sweep,
// where and why it stopped. Read from summary.json's "concurrency_sweep" sections, tolerant of
// runs that lack them (older folders, a run killed before the section was written).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::report {

struct SweepSummary {
  std::string lane;
  std::string mode;  // "list" (the plan's levels) or "doubling"
  double min_gain = 0;
  std::optional<long long> knee_concurrency;
  double knee_output_tok_s = -1;  // -1: not recorded
  double knee_e2el_p99_ms = -1;
  bool knee_reached = false;  // false: output still gained at the last level measured
  std::optional<long long> stopped_at;
  std::string stop_reason;  // "gain_below_min", "errors", "max_concurrency", ...
  std::string stop_detail;  // the run's sentence for people
};

// One entry per lane (in `lanes` order; every lane the experiment recorded when `lanes` is empty)
// and throughput experiment that recorded a sweep.
std::vector<SweepSummary> sweep_summaries(const nlohmann::json& summary,
                                          const std::vector<std::string>& lanes);

// "knee at 8 streams (1234.5 tok/s, E2EL p99 2.31 s); stopped at 16 streams: <detail>".
std::string describe_sweep(const SweepSummary& sweep);

}  // namespace lb::report
