#pragma once
// SLO capacity (docs/capacity.md): per lane, the highest concurrency or request rate at which
// every SLO percentile holds, found by doubling and then bisection
// (core/run/experiments/capacity_search.h). Each probe is one phase ("c8", "r2.5") with its own
// warm-ups discarded; the search stops at the resolution, after max_probes probes, or when
// max_duration_s is spent. The lane's "capacity" section holds the capacity, the goodput at it, the
// binding SLO and every probe.
#include "core/record/capacity_record.h"
#include "core/run/experiments/capacity_search.h"
#include "core/run/experiments/experiment.h"

namespace lb::run {

class CapacityExperiment : public Experiment {
 public:
  void run(ExperimentContext& ctx) override;
};

// Pass or fail of a probe against the SLOs (<= 0 = not set): every set SLO holds, no request
// failed and at least one completed. Sets `pass` and `binding`.
void judge_probe(CapacityProbe& probe, double ttft_p99_limit_ms, double tpot_p99_limit_ms);

// A probe as the run folder records it.
record::CapacityProbeRecord probe_record(const CapacityProbe& probe);

}  // namespace lb::run
