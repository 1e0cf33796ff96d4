#include "ui/decision/decision_view.h"

#include <exception>

#include "report/gate_table.h"
#include "report/report_model.h"
#include "ui/decision/gate_rows.h"

namespace lb::ui {

DecisionView decision_view_of(const report::RunFolder& folder) {
  DecisionView view;
  const nlohmann::json& plan = folder.plan;
  if (plan.is_object() && plan.contains("name") && plan["name"].is_string())
    view.plan_name = QString::fromStdString(plan["name"].get<std::string>());
  try {
    const std::vector<std::string> lanes = folder.lane_ids();
    for (const std::string& lane : lanes) view.lanes << QString::fromStdString(lane);
    const report::GateTable table = report::build_gate_table(
        folder.summary, lanes, &folder.reviews, &folder.artifacts, &folder.sampled_reviews);
    view.gates_snapshot = report::gate_table_to_json(table);
    view.has_gates = !table.empty();
    view.rows = gate_rows(table);
    for (models::GateRowView& row : performance_rows(folder.summary, lanes))
      view.rows.push_back(std::move(row));
    for (const std::string& c : report::batch_variant_caveats(folder))
      view.caveats << QString::fromStdString(c);
  } catch (const std::exception& e) {
    view.rows.clear();
    view.gates_snapshot = nullptr;
    view.has_gates = false;
    view.error = QString(
                     "summary.json, review or verification of this run has a value of the "
                     "wrong kind, so its gates cannot be shown: %1")
                     .arg(e.what());
  }
  return view;
}

}  // namespace lb::ui
