#pragma once
// The Decision page's table rows: core/report's gate table as item-model rows, plus a few
// performance figures per experiment read from summary.json (TTFT, decode, E2E latency at the
// experiment's first, lightest phase and its best output throughput), so the decision is taken
// with the numbers in view.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/gate_table_model.h"
#include "report/gate_table.h"

namespace lb::ui {

std::vector<models::GateRowView> gate_rows(const report::GateTable& table);
std::vector<models::GateRowView> performance_rows(const nlohmann::json& summary,
                                                  const std::vector<std::string>& lanes);

}  // namespace lb::ui
