#include "ui/decision/decision_view.h"

#include <exception>

#include "core/record/file_fields.h"
#include "core/report/gate_table.h"
#include "core/report/report_model.h"
#include "ui/decision/gate_rows.h"

namespace lb::ui {
namespace {

void build_rows(const report::RunFolder& folder, DecisionView& view) {
  const std::vector<std::string> lanes = folder.lane_ids();
  for (const std::string& lane : lanes) view.lanes << QString::fromStdString(lane);
  const report::GateTable table = report::build_gate_table(
      folder.record, lanes, &folder.reviews, &folder.artifacts, &folder.sampled_reviews);
  view.has_gates = !table.empty();
  view.rows = gate_rows(table);
  view.gates = table;
  for (models::GateRowView& row : floor_rows(folder.record, lanes))
    view.rows.push_back(std::move(row));
  for (models::GateRowView& row : performance_rows(folder.record, lanes))
    view.rows.push_back(std::move(row));
  for (const std::string& c : report::batch_variant_caveats(folder))
    view.caveats << QString::fromStdString(c);
}

}  // namespace

DecisionView decision_view_of(const report::RunFolder& folder) {
  DecisionView view;
  view.plan_name = QString::fromStdString(folder.plan_headline.name);
  // "damaged: FILE: what", as the folder's reader wrote it for each file it could not use.
  for (const std::string& line : folder.damage) view.damage << QString::fromStdString(line);
  try {
    build_rows(folder, view);
  } catch (const std::exception& e) {
    // The gate table reads summary.json, the reviews and the verifications in core/report.
    view.rows.clear();
    view.gates.reset();
    view.has_gates = false;
    view.damage << QString(
                       "damaged: summary.json, a review or a verification: a value of the wrong "
                       "kind, so the gates cannot be shown (%1)")
                       .arg(e.what());
  }
  for (const std::string& line : folder.record_damage) view.damage << QString::fromStdString(line);
  view.error = view.damage.join("\n");
  return view;
}

}  // namespace lb::ui
