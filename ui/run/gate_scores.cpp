#include "ui/run/gate_scores.h"

#include <algorithm>

namespace lb::ui {

void LiveGateScores::reset(QStringList lanes, std::vector<std::string> checks) {
  lanes_ = std::move(lanes);
  checks_ = std::move(checks);
  cells_.clear();
}

void LiveGateScores::apply(const record::GateResult& result) {
  const QString lane = QString::fromStdString(result.lane_id);
  if (!lanes_.contains(lane)) lanes_ << lane;
  if (std::find(checks_.begin(), checks_.end(), result.check) == checks_.end())
    checks_.push_back(result.check);
  const QString status = QString::fromLatin1(record::to_string(result.status));
  const bool scored = result.status != record::GateStatus::Unsupported;
  cells_[{lane, result.check}] = {
      status, scored ? status + " " + QString::fromStdString(result.score) : status,
      QString::fromStdString(result.reason())};
}

void LiveGateScores::apply_summary(const record::RunSummary& summary) {
  for (const record::ExperimentSection* e : summary.of_kind(record::ExperimentKind::Gates))
    apply_section(*e);
}

void LiveGateScores::apply_section(const record::ExperimentSection& section) {
  for (const record::LaneRecord& lane : section.lanes)
    for (const record::GateResult& gate : lane.gates) apply(gate);
}

std::vector<GateScoreRow> LiveGateScores::rows() const {
  std::vector<GateScoreRow> out;
  for (const std::string& check : checks_) {
    GateScoreRow row;
    row.gate = QString::fromStdString(check);
    for (const QString& lane : lanes_) {
      auto it = cells_.find({lane, check});
      row.cells.push_back(it != cells_.end() ? it->second
                                             : GateScoreCell{"not run", "…", QString()});
    }
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace lb::ui
