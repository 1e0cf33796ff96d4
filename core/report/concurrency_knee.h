#pragma once
// A throughput experiment's concurrency sweep, per lane, as people read it: where the knee is
// (the last level before aggregate output stopped gaining min_gain) and, for a doubling sweep,
// where and why it stopped. Read from the run's record, tolerant of runs that lack the
// sweeps (older folders, a run killed before the section was written).
#include <string>
#include <vector>

#include "core/record/run_summary.h"

namespace lb::report {

struct SweepSummary : record::ConcurrencySweepRecord {
  std::string lane;
};

// One entry per lane (in `lanes` order; every lane the experiment recorded when `lanes` is empty)
// and throughput experiment that recorded a sweep.
std::vector<SweepSummary> sweep_summaries(const record::RunSummary& summary,
                                          const std::vector<std::string>& lanes);

// "knee at 8 streams (1234.5 tok/s, E2EL p99 2.31 s); stopped at 16 streams: <detail>".
std::string describe_sweep(const SweepSummary& sweep);

}  // namespace lb::report
