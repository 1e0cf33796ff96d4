#pragma once
// Run: pick lanes and an experiment, start and stop, and watch it live: charts, a per-lane table
// of medians and p99 with provenance badges, errors per lane, progress with ETA. While a plan
// runs, its lanes and experiments (read-only, each marked as it runs and ends, with the plan's
// time left) stand in place of the form, and each experiment's charts stay on a tab of their own
// after it ends.
#include <QWidget>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>

#include "ui/history/run_folder_job.h"
#include "ui/run/gate_scores.h"
#include "ui/run/run_controller.h"

class QAbstractItemModel;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTableView;
class QTabWidget;

namespace lb::widgets {
class LanePalette;
}

namespace lb::ui {

class ExperimentForm;
class LiveCharts;
class PlanProgressView;
class PlanStartGate;
class ServerStateView;
class Workspace;

class RunPage : public QWidget {
  Q_OBJECT
 public:
  RunPage(Workspace& workspace, std::shared_ptr<widgets::LanePalette> palette,
          QWidget* parent = nullptr);

  void reload_lanes();        // after the workspace's lanes changed
  void reload_prompt_sets();  // after the workspace's prompt sets changed
  // Runs the experiment the page is set to on the checked lanes, into a new run. False with
  // *ERROR when the settings cannot run; otherwise the files they name are checked off the GUI
  // thread and start_answered says whether the run started.
  bool start_run(QString* error);
  void stop_run();
  // Runs every experiment of a plan file into one new run, on the plan's own lanes. The file is
  // read and checked off the GUI thread (a trace or ShareGPT file it names is read there, once,
  // and the runner replays what was read); then the page asks about any server programs and
  // starts the run. start_answered says how it ended; a call while a run goes or a check is
  // under way is refused.
  void open_plan_file(const QString& path);
  bool checking_plan() const;
  // Writes what the page is set to (checked lanes, the experiment) as a plan file that
  // `lanebench-cli run` runs unchanged.
  bool save_plan_file(const QString& path, QString* error);
  // Runs the experiment the page is set to into the open run (set_open_run) on the checked
  // lanes, adding to that run (core/run/folder/run_append.h).
  bool add_experiment(QString* error);
  // The run folder an added experiment goes into: the last finished or opened run.
  void set_open_run(const QString& run_dir);
  QString open_run() const { return open_run_; }
  QPushButton* add_button() const { return add_; }
  // A banner above the setup offering to run the plan file at PATH (the demo workspace's
  // qualification); an empty path hides it.
  void offer_plan(const QString& path, const QString& text);
  QWidget* plan_offer() const { return offer_; }
  // Loads a stored run (off the GUI thread) and overlays its series on the live charts.
  void overlay_run(const QString& run_dir);
  RunController* controller() { return &controller_; }
  LiveCharts* charts() const { return charts_; }          // the running (or last) experiment's
  QTabWidget* chart_tabs() const { return chart_tabs_; }  // one tab of charts per experiment
  PlanProgressView* plan_view() const { return plan_view_; }
  // Whether the plan view stands in place of the form (while a plan runs).
  bool showing_plan() const;
  ExperimentForm* experiment_form() const { return form_; }
  QTableView* stats_view() const { return stats_view_; }
  QTableView* phase_view() const { return phase_view_; }
  // Each managed server's state in the running (or last) plan.
  ServerStateView* servers_view() const { return servers_view_; }
  void show_servers_tab();
  QString log_text() const;  // the Messages pane
  QStringList checked_lanes() const;
  void set_checked_lanes(const QStringList& lanes);

 signals:
  void status(const QString& text);
  void run_finished(const QString& run_dir, bool has_review);
  // After open_plan_file, or start_run's check: STARTED, or why not. A problem is also shown in
  // a window-modal box, except when the user declined to start the plan's programs.
  void start_answered(bool started, const QString& error);

 private:
  // The plan file's JSON for the checked lanes and the form's experiment, or null with *error.
  nlohmann::json form_plan_json(QString* error) const;
  // Starts PLAN, which passed the gate, into RUN_DIR.
  bool run_plan(plan::Plan plan, const QString& run_dir, bool append, bool launch_allowed,
                QString* error);
  QString why_not_now() const;      // empty when a run may start
  QString run_in_progress() const;  // why not while a run goes; empty when none does
  static std::function<plan::PlanParseResult()> checked_settings(plan::Plan plan);
  PlanStartGate* gate_ = nullptr;  // every start goes through it
  void on_experiment_started(int index, const QString& name, const QString& kind);
  void on_section_done(int index, const record::ExperimentSection& section);
  void on_add_clicked();
  void update_start_buttons();  // Start and Add: not while a run goes or a plan is checked
  void update_add_button();
  void on_start_clicked();
  void on_updated(const QStringList& changed);
  void on_message(int level, const QString& text);
  void on_finished(const RunOutcome& outcome, const QString& run_dir);
  void set_running(bool running);
  void show_kind(const QString& kind);
  QTableView* make_stats_view(QAbstractItemModel* model, QWidget* parent);
  QWidget* build_setup_panel();
  QWidget* build_offer();
  QWidget* build_live_panel();
  // The charts of a new experiment on a tab of their own (FRESH_RUN: the run's first, which
  // replaces every tab of the last run).
  void open_chart_tab(const QString& title, bool fresh_run);
  void on_overlay_requested();
  void on_overlay_loaded(const std::shared_ptr<const LoadedRun>& run);
  void append_log(const QString& line);  // the view follows the newest line unless scrolled up
  bool log_follows_ = true;
  Workspace& workspace_;
  std::shared_ptr<widgets::LanePalette> palette_;
  RunController controller_;
  QListWidget* lanes_ = nullptr;
  ExperimentForm* form_ = nullptr;
  QStackedWidget* setup_stack_ = nullptr;  // the form, or the running plan
  QWidget* setup_form_ = nullptr;
  PlanProgressView* plan_view_ = nullptr;
  QTabWidget* chart_tabs_ = nullptr;
  int chart_experiment_ = -1;  // the plan index the current chart tab shows
  QPushButton* start_ = nullptr;
  QPushButton* stop_ = nullptr;
  QPushButton* add_ = nullptr;
  QWidget* offer_ = nullptr;
  QLabel* offer_text_ = nullptr;
  QString offered_plan_;
  RunFolderJob* overlay_loader_ = nullptr;
  QString open_run_;
  QStringList plan_kinds_;  // the running plan's experiment kinds, in order
  std::vector<std::vector<std::string>> plan_checks_;    // each experiment's gate checks
  std::vector<plan::CapacityExperiment> plan_capacity_;  // each experiment's SLOs (capacity)
  QStringList plan_lanes_;
  QProgressBar* progress_ = nullptr;
  QLabel* progress_label_ = nullptr;
  QPlainTextEdit* log_ = nullptr;
  LiveCharts* charts_ = nullptr;
  QTableView* stats_view_ = nullptr;
  QTableView* phase_view_ = nullptr;
  QTabWidget* tables_ = nullptr;
  ServerStateView* servers_view_ = nullptr;
  LiveGateScores gate_scores_;
  QString last_kind_;
};

}  // namespace lb::ui
