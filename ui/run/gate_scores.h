#pragma once
// The live gate score table of a gates run: each lane's gates as the engine scores them, taken
// from its per-gate message ("lane L: gate G pass (3/3)") while the run goes, then from the
// run's summary.json (with the reasons for fails and unsupported gates) once it is written.
#include <QString>
#include <QStringList>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace lb::record {
class FileFields;
}

namespace lb::ui {

struct GateScoreCell {
  QString status;  // "pass", "fail", "unsupported", "not run"
  QString text;    // "pass 3/3", "unsupported", "…"
  QString detail;  // why it failed or is unsupported (from summary.json)
};

struct GateScoreRow {
  QString gate;
  std::vector<GateScoreCell> cells;  // one per lane
};

class LiveGateScores {
 public:
  void reset(QStringList lanes, std::vector<std::string> checks);
  // True when the message was a gate score and changed the table.
  bool apply_message(const QString& text);
  // Reads experiments[kind == "gates"].lanes[LANE].gates[CHECK] of summary.json; returns what of
  // it could not be read ("damaged: summary.json: …"), the rest being applied.
  QStringList apply_summary(const nlohmann::json& summary);
  QStringList lanes() const { return lanes_; }
  std::vector<GateScoreRow> rows() const;

 private:
  void apply_lane(const QString& lane, const nlohmann::json& gates, const std::string& path,
                  record::FileFields& f);

  QStringList lanes_;
  std::vector<std::string> checks_;
  std::map<std::pair<QString, std::string>, GateScoreCell> cells_;
};

}  // namespace lb::ui
