#include "ui/run/gate_scores.h"

#include <QRegularExpression>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "record/file_fields.h"

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

void LiveGateScores::apply_lane(const QString& lane, const nlohmann::json& gates,
                                const std::string& path, record::FileFields& f) {
  if (!lanes_.contains(lane)) lanes_ << lane;
  for (const auto& [check, g] : gates.items()) {
    const std::string at = path + "." + check;
    if (!f.expect_object(g, at)) continue;
    if (std::find(checks_.begin(), checks_.end(), check) == checks_.end()) checks_.push_back(check);
    const QString status = QString::fromStdString(f.string(g, at, "status"));
    const QString score = QString::fromStdString(f.string(g, at, "score"));
    QString detail = QString::fromStdString(f.string(g, at, "why"));
    const nlohmann::json& failures = f.array(g, at, "failures");
    if (!failures.empty() && failures[0].is_object())
      detail = QString::fromStdString(f.string(failures[0], at + ".failures[0]", "why"));
    cells_[{lane, check}] = {status, status == "unsupported" ? status : status + " " + score,
                             detail};
  }
}

QStringList LiveGateScores::apply_summary(const nlohmann::json& summary) {
  record::FileFields f("summary.json");
  const nlohmann::json& experiments = f.array(summary, "", "experiments");
  for (size_t i = 0; i < experiments.size(); ++i) {
    const nlohmann::json& e = experiments[i];
    const std::string path = record::FileFields::item_path("", "experiments", i);
    if (!f.expect_object(e, path) || f.string(e, path, "kind") != "gates") continue;
    for (const auto& [lane_id, lane] : f.object(e, path, "lanes").items()) {
      const std::string at = path + ".lanes." + lane_id;
      if (!f.expect_object(lane, at) || !lane.contains("gates")) continue;
      apply_lane(QString::fromStdString(lane_id), f.object(lane, at, "gates"), at + ".gates", f);
    }
  }
  QStringList damage;
  for (const std::string& line : f.damage()) damage << QString::fromStdString(line);
  return damage;
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
