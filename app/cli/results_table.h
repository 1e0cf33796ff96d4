#pragma once
// The concise table `run` prints at the end: one row per experiment, lane and phase.
#include <string>

#include "core/record/run_summary.h"

namespace lb::cli {

// Columns: experiment, lane, phase, completed, errors, median TTFT ms, median decode tok/s,
// output tok/s, p99 ITL ms ("-" where a value is not available); the two medians with their
// intervals as "x [lo, hi]". Then one line per lane comparison with its verdict.
std::string format_results_table(const record::RunSummary& summary);

}  // namespace lb::cli
