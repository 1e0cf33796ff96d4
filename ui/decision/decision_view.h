#pragma once
// What the Decision page shows of a run, computed with the run's loading off the GUI thread:
// the gate table (as the report judges it), its JSON snapshot for decision.json, the table rows
// with the performance figures, and the plan's name. A damaged summary.json, review or
// verification cannot throw into the page: the view then holds no rows and says why.
#include <QString>
#include <QStringList>
#include <nlohmann/json.hpp>
#include <vector>

#include "models/gate_table_model.h"
#include "report/run_folder.h"

namespace lb::ui {

struct DecisionView {
  QString plan_name;
  QStringList lanes;
  std::vector<models::GateRowView> rows;  // gate rows, then performance rows
  nlohmann::json gates_snapshot;          // report::gate_table_to_json of the gate table
  bool has_gates = false;
  // Caveats the decision must weigh: differing prompts that batching alone moves (named by id).
  QStringList caveats;
  QString error;  // "summary.json …: why"; empty when the view could be built
};

DecisionView decision_view_of(const report::RunFolder& folder);

}  // namespace lb::ui
