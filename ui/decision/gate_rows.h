#pragma once
// The Decision page's table rows: core/report's gate table as item-model rows, plus a few
// performance figures per experiment read from summary.json (TTFT, decode, E2E latency at the
// experiment's first, lightest phase and its best output throughput), so the decision is taken
// with the numbers in view. A figure with a bootstrap interval reads "x [lo, hi]", and a lane
// compared with the first has its verdict ("fp8/bf16 c1 decode p50 1.788 [1.786, 1.791]: faster
// (95 %)") as the cell's tooltip.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/gate_table_model.h"
#include "report/gate_table.h"
#include "report/json_access.h"

namespace lb::ui {

std::vector<models::GateRowView> gate_rows(const report::GateTable& table);
// What of summary.json is of the wrong kind is noted in `fields` (the rows hold the rest).
std::vector<models::GateRowView> performance_rows(const nlohmann::json& summary,
                                                  const std::vector<std::string>& lanes,
                                                  report::FileFields& fields);

}  // namespace lb::ui
