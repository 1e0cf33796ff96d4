#pragma once
// Trace replay: the requests of a trace file sent open loop on the trace's own timestamps
// (divided by speedup), against each lane in turn, as one phase "trace" per lane. Every request's
// lateness (t_sent - t_sched) is in requests.jsonl as queue_delay_ms; the lane's section says how
// late the client sent and whether it kept up (docs/traces.md).
#include <vector>

#include "core/record/trace_record.h"
#include "core/run/experiments/experiment.h"

namespace lb::run {

class TraceExperiment : public Experiment {
 public:
  void run(ExperimentContext& ctx) override;
};

// A request sent more than this late counts as late.
inline constexpr double kLateThresholdMs = 10.0;
// The client kept up when at most this share of the sent requests was late, and the replay ran
// to its end.
inline constexpr double kKeptUpMaxLateShare = 0.01;

// The lane's "schedule" section: scheduled and sent counts, lateness p50/p99/max (ms), the share
// sent more than kLateThresholdMs late, and whether the client kept up.
record::TraceScheduleRecord schedule_adherence(const PhaseOutcome& outcome, size_t scheduled);

}  // namespace lb::run
