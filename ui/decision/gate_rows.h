#pragma once
// The Decision page's table rows: core/report's gate table as item-model rows, plus the
// performance figures of every phase of each experiment of the run record (TTFT, decode and
// E2E latency at each concurrency level, context size, cold and warm pass) and its best output
// throughput, so the decision is taken with the numbers in view. A figure with a bootstrap
// interval reads "x [lo, hi]"; a lane compared with the first adds its ratio, the ratio's
// interval and the verdict on a second line ("×1.79 [1.77, 1.80] faster"), tinted by the
// verdict, with the full statement as the tooltip.
#include <string>
#include <vector>

#include "core/record/run_summary.h"
#include "core/report/gate_table.h"
#include "models/gate_table_model.h"

namespace lb::ui {

std::vector<models::GateRowView> gate_rows(const report::GateTable& table);
// For each regression measured against its baseline's determinism floor: the floor on the
// baseline's cell and "above the floor" or "within the floor" with the test's p on each
// candidate's (the whole statement is the tooltip).
std::vector<models::GateRowView> floor_rows(const record::RunSummary& summary,
                                            const std::vector<std::string>& lanes);
std::vector<models::GateRowView> performance_rows(const record::RunSummary& summary,
                                                  const std::vector<std::string>& lanes);

}  // namespace lb::ui
