#pragma once
// Loads a run folder off the GUI thread (requests.jsonl of a long run is large): the folder as
// core/report reads it, plus its chart series. Only the newest request's result is delivered;
// an older one that finishes later is dropped.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <cstdint>
#include <memory>

#include "core/report/run_folder.h"
#include "ui/decision/decision_view.h"
#include "ui/history/effects_view.h"
#include "ui/history/stored_run_series.h"

namespace lb::ui {

struct LoadedRun {
  QString dir;
  std::optional<report::RunFolder> folder;  // empty when it could not be read (see error)
  StoredRunSeries series;
  DecisionView decision;  // the Decision page's table, built here rather than on the GUI thread
  std::vector<EffectChart> effects;  // report::effect_charts as SVG, drawn here as well
  QStringList damage;  // "damaged: FILE: what" of the files that could not be read as written
  QString error;
};

class RunFolderJob : public QObject {
  Q_OBJECT
 public:
  explicit RunFolderJob(QObject* parent = nullptr);
  ~RunFolderJob() override;  // waits for a load in flight (it touches no object of ours)

  void load(const QString& dir);
  bool loading() const { return watcher_.isRunning(); }

 signals:
  void loaded(std::shared_ptr<const lb::ui::LoadedRun> run);

 private:
  QFutureWatcher<std::shared_ptr<const LoadedRun>> watcher_;
  uint64_t generation_ = 0;
  uint64_t running_generation_ = 0;
  QString queued_;
};

// The same, on the calling thread (tests, the CLI-like paths).
std::shared_ptr<const LoadedRun> load_run(const QString& dir);

}  // namespace lb::ui
