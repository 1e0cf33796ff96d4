#pragma once
// The live gate score table of a gates run: each lane's gates as the engine scores them (its typed
// gate results, run/run_sink.h), then as the run's summary records them once it ends.
#include <QString>
#include <QStringList>
#include <map>
#include <string>
#include <vector>

#include "core/record/run_summary.h"

namespace lb::ui {

struct GateScoreCell {
  QString status;  // "pass", "fail", "unsupported", "stopped", "not run"
  QString text;    // "pass 3/3", "unsupported", "…"
  QString detail;  // why it failed, is unsupported or was stopped
};

struct GateScoreRow {
  QString gate;
  std::vector<GateScoreCell> cells;  // one per lane
};

class LiveGateScores {
 public:
  void reset(QStringList lanes, std::vector<std::string> checks);
  void apply(const record::GateResult& result);
  // Every gates experiment of the summary, lane by lane.
  void apply_summary(const record::RunSummary& summary);
  void apply_section(const record::ExperimentSection& section);  // one gates experiment's
  QStringList lanes() const { return lanes_; }
  std::vector<GateScoreRow> rows() const;

 private:
  QStringList lanes_;
  std::vector<std::string> checks_;
  std::map<std::pair<QString, std::string>, GateScoreCell> cells_;
};

}  // namespace lb::ui
