#include "ui/run/gate_scores.h"

#include <QRegularExpression>
#include <algorithm>
#include <nlohmann/json.hpp>

namespace lb::ui {

void LiveGateScores::reset(QStringList lanes, std::vector<std::string> checks) {
  lanes_ = std::move(lanes);
  checks_ = std::move(checks);
  cells_.clear();
}

bool LiveGateScores::apply_message(const QString& text) {
  // The engine's wording (core/run/gates_experiment.cpp): "lane L: gate G STATUS (n/N)", G
  // one word or one word and an API in brackets ("multimodal (responses)").
  static const QRegularExpression re(
      R"(^lane (.+): gate (\S+(?: \(\w+\))?) (pass|fail|unsupported|stopped) \((\d+/\d+)\)$)");
  const QRegularExpressionMatch m = re.match(text);
  if (!m.hasMatch()) return false;
  const QString lane = m.captured(1);
  const std::string check = m.captured(2).toStdString();
  if (!lanes_.contains(lane)) lanes_ << lane;
  if (std::find(checks_.begin(), checks_.end(), check) == checks_.end()) checks_.push_back(check);
  const QString status = m.captured(3);
  cells_[{lane, check}] = {status, status == "unsupported" ? status : status + " " + m.captured(4),
                           QString()};
  return true;
}

void LiveGateScores::apply_summary(const nlohmann::json& summary) {
  if (!summary.is_object() || !summary.contains("experiments")) return;
  for (const nlohmann::json& e : summary["experiments"]) {
    if (!e.is_object() || e.value("kind", "") != "gates" || !e.contains("lanes")) continue;
    for (const auto& [lane_id, lane] : e["lanes"].items()) {
      if (!lane.is_object() || !lane.contains("gates")) continue;
      const QString lane_q = QString::fromStdString(lane_id);
      if (!lanes_.contains(lane_q)) lanes_ << lane_q;
      for (const auto& [check, g] : lane["gates"].items()) {
        if (std::find(checks_.begin(), checks_.end(), check) == checks_.end())
          checks_.push_back(check);
        const QString status = QString::fromStdString(g.value("status", ""));
        const QString score = QString::fromStdString(g.value("score", ""));
        QString detail = QString::fromStdString(g.value("why", ""));
        if (g.contains("failures") && !g["failures"].empty())
          detail = QString::fromStdString(g["failures"][0].value("why", ""));
        cells_[{lane_q, check}] = {status, status == "unsupported" ? status : status + " " + score,
                                   detail};
      }
    }
  }
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
