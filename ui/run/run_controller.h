#pragma once
// Bridges core/run's PlanRunner (on its own thread) to the GUI. The runner reports through a
// StagingSink; a timer on the GUI thread drains it at most 30 times a second, folds the batch into
// LiveRunData and the stats model in one step, and tells the page to redraw. Nothing here calls
// processEvents() and nothing on the GUI thread waits for the engine (except the final join, after
// the runner has said it is done).
#include <QObject>
#include <QString>
#include <QTimer>
#include <atomic>
#include <memory>
#include <thread>

#include "core/plan/plan.h"
#include "models/lane_stats_model.h"
#include "models/phase_stats_model.h"
#include "ui/run/live_run_data.h"
#include "ui/run/staging_sink.h"

namespace lb::ui {

class RunController : public QObject {
  Q_OBJECT
 public:
  static constexpr int kDrainIntervalMs = 33;  // <= 30 Hz

  explicit RunController(QObject* parent = nullptr);
  ~RunController() override;  // stops a running run and waits for its thread

  // Starts the plan writing into out_dir, a new run; with append, the plan's experiments are
  // added to the run already there (core/run/folder/run_append.h). Returns false (and *error) when
  // a run is active or the folder cannot take the run. ALLOW_LAUNCH lets the plan's launch blocks
  // start their server programs (the user confirmed them). ENV is where keys are read and which may
  // be sent where (plan/environment.h).
  bool start(plan::Plan plan, const QString& out_dir, QString* error, bool append = false,
             bool allow_launch = false, plan::Environment env = plan::Environment::of_process());
  // Asks the runner to stop and returns at once; finished() follows. Requests in flight are
  // cancelled (StreamClient's cancel_when), so that normally takes well under a second; after
  // kStillStoppingMs without it, phase_text() says the run is still stopping.
  void stop();
  static constexpr int kStillStoppingMs = 1000;
  bool stopping() const { return stop_requested_ns_ != 0 && running(); }
  bool running() const { return thread_.joinable(); }
  QString run_dir() const { return run_dir_; }

  const LiveRunData& data() const { return data_; }
  models::LaneStatsModel* stats_model() { return &stats_; }
  models::PhaseStatsModel* phase_model() { return &phase_stats_; }
  // Overall progress in [0, 1] (-1 unknown) and seconds left (-1 unknown).
  double progress_fraction() const { return fraction_; }
  double eta_s() const { return eta_s_; }
  // Seconds left of the whole plan (-1 unknown): the running experiment's own estimate, and the
  // experiments ahead at the mean duration of those finished (or of the running one, projected).
  double plan_eta_s() const;
  QString phase_text() const { return phase_text_; }
  double elapsed_s() const;
  int drain_count() const { return drains_; }
  // The plan's experiments in run order, and which one is running (-1 before the first).
  struct PlannedExperiment {
    QString name;
    QString kind;
  };
  const std::vector<PlannedExperiment>& experiments() const { return experiments_; }
  // The run's managed servers as last reported (run/run_sink.h's ServerState), by lane id.
  const std::map<std::string, run::ServerState>& servers() const { return servers_; }
  int experiment_index() const { return experiment_index_; }

 signals:
  void updated(const QStringList& changed_lanes);  // after a batch was applied
  // After each drain: what it cost the GUI thread (taking the batch, folding it into the live
  // data, tables and charts, and the updated() slots) and how many requests it brought.
  void drained(qint64 cost_ns, int records);
  void message(int level, const QString& text);  // run::MessageLevel as int
  void servers_changed();                        // servers() changed (at most once a drain)
  // Gate checks scored since the last drain, in the order the engine scored them.
  void gates_scored(const std::vector<lb::record::GateResult>& results);
  // The live data is about to be emptied for the next experiment: the last moment data() holds
  // the one that ends.
  void experiment_ending();
  // The run moved on to experiment INDEX of the plan: the live data now holds that experiment's
  // requests only (its own charts and tables; the run folder keeps them all).
  void experiment_started(int index, const QString& name, const QString& kind);
  // Experiment INDEX of the plan is over on every lane and summary.json holds SECTION.
  void section_done(int index, const lb::record::ExperimentSection& section);
  void finished(const lb::ui::RunOutcome& outcome, const QString& run_dir);

 private:
  void drain();
  // Folds the batch's records into the live data, starting an experiment's data afresh where
  // the records move on to the next one.
  std::set<QString> add_records(const std::vector<metrics::RequestRecord>& records);
  void begin_experiment(const std::string& name);
  void name_experiments(const std::vector<std::string>& names);
  void note_slow_stop();  // "still stopping" once a stop has taken kStillStoppingMs
  void apply_progress(const std::map<std::string, run::RunProgress>& progress);
  void refresh_stats(const std::set<QString>& changed);

  std::unique_ptr<StagingSink> sink_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  QTimer timer_;
  LiveRunData data_;
  models::LaneStatsModel stats_;
  models::PhaseStatsModel phase_stats_;
  std::map<std::string, run::RunProgress> progress_;
  std::map<std::string, run::ServerState> servers_;
  QString run_dir_;
  std::vector<PlannedExperiment> experiments_;
  int experiment_index_ = -1;
  std::string experiment_;  // the running experiment's name
  QStringList run_lanes_;
  double fraction_ = -1;
  double eta_s_ = -1;
  double experiment_eta_s_ = -1;     // the running experiment's own estimate
  double experiment_started_s_ = 0;  // elapsed_s() when it started
  std::vector<double> durations_s_;  // of the experiments finished so far
  QString phase_text_;
  int drains_ = 0;
  int64_t stop_requested_ns_ = 0;  // steady ns of stop(), 0 when not stopping
  bool still_stopping_ = false;
};

}  // namespace lb::ui

Q_DECLARE_METATYPE(lb::ui::RunOutcome)
