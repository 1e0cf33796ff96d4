#pragma once
// Run: pick lanes and an experiment, start and stop, and watch it live: charts, a per-lane table
// of medians and p99 with provenance badges, errors per lane, progress with ETA.
#include <QWidget>
#include <memory>

#include "ui/run/gate_scores.h"
#include "ui/run/run_controller.h"

class QAbstractItemModel;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableView;
class QTabWidget;

namespace lb::widgets {
class LanePalette;
}

namespace lb::ui {

class ExperimentForm;
class LiveCharts;
class Workspace;

class RunPage : public QWidget {
  Q_OBJECT
 public:
  RunPage(Workspace& workspace, std::shared_ptr<widgets::LanePalette> palette,
          QWidget* parent = nullptr);

  void reload_lanes();        // after the workspace's lanes changed
  void reload_prompt_sets();  // after the workspace's prompt sets changed
  bool start_run(QString* error);
  void stop_run();
  RunController* controller() { return &controller_; }
  LiveCharts* charts() const { return charts_; }
  ExperimentForm* experiment_form() const { return form_; }
  QTableView* stats_view() const { return stats_view_; }
  QTableView* phase_view() const { return phase_view_; }
  QString log_text() const;  // the Messages pane
  QStringList checked_lanes() const;
  void set_checked_lanes(const QStringList& lanes);

 signals:
  void status(const QString& text);
  void run_finished(const QString& run_dir, bool has_review);

 private:
  bool confirm_lane_keys(const plan::Plan& plan, QString* error);
  bool ask_keyring_key(const plan::Lane& lane, QString* error);
  void on_start_clicked();
  void on_updated(const QStringList& changed);
  void on_message(int level, const QString& text);
  void on_finished(const RunOutcome& outcome, const QString& run_dir);
  void set_running(bool running);
  void show_kind(const QString& kind);
  void load_gate_summary(const QString& run_dir);
  // After a throughput run: each lane's knee and, for a doubling sweep, where and why it stopped.
  void report_sweeps(const QString& run_dir);
  QTableView* make_stats_view(QAbstractItemModel* model, QWidget* parent);
  QWidget* build_setup_panel();
  QWidget* build_live_panel();

  Workspace& workspace_;
  std::shared_ptr<widgets::LanePalette> palette_;
  RunController controller_;
  QListWidget* lanes_ = nullptr;
  ExperimentForm* form_ = nullptr;
  QPushButton* start_ = nullptr;
  QPushButton* stop_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* progress_label_ = nullptr;
  QPlainTextEdit* log_ = nullptr;
  LiveCharts* charts_ = nullptr;
  QTableView* stats_view_ = nullptr;
  QTableView* phase_view_ = nullptr;
  QTabWidget* tables_ = nullptr;
  LiveGateScores gate_scores_;
  QString last_kind_;
};

}  // namespace lb::ui
