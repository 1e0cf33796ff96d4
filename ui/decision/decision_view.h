#pragma once
// What the Decision page shows of a run, computed with the run's loading off the GUI thread:
// the gate table (as the report judges it, kept for decision.json's snapshot), the table rows
// with the performance figures, and the plan's name. A damaged summary.json, review or
// verification cannot throw into the page: the view says what is damaged and holds the rest.
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "core/report/gate_table.h"
#include "core/report/run_folder.h"
#include "models/gate_table_model.h"

namespace lb::ui {

struct DecisionView {
  QString plan_name;
  QStringList lanes;
  std::vector<models::GateRowView> rows;   // gate rows, then performance rows
  std::optional<report::GateTable> gates;  // none when the run's files could not give one
  bool has_gates = false;
  // Caveats the decision must weigh: differing prompts that batching alone moves (named by id).
  QStringList caveats;
  // "damaged: summary.json: experiments[2].kind is a list, not a string", one per line: what of
  // the run's files could not be read (the view holds the rest).
  QStringList damage;
  QString error;  // the damage as one text for the page's banner; empty when none
};

DecisionView decision_view_of(const report::RunFolder& folder);

}  // namespace lb::ui
