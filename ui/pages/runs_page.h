#pragma once
// Runs: the workspace's run folders, newest first, complete or not. Opening one loads it off the
// GUI thread and shows its charts again below the list (with a banner when the run was stopped
// or killed before it finished); the window hands the same run to the Review and Decision pages.
#include <QStringList>
#include <QWidget>
#include <memory>
#include <vector>

#include "models/run_history_model.h"
#include "ui/history/run_folder_job.h"

class QLabel;
class QTableView;
class QTabWidget;

namespace lb::widgets {
class LanePalette;
}

namespace lb::ui {

class EffectsView;
class StoredCharts;
class Workspace;

class RunsPage : public QWidget {
  Q_OBJECT
 public:
  RunsPage(Workspace& workspace, std::shared_ptr<widgets::LanePalette> palette,
           QWidget* parent = nullptr);
  // Scans the workspace's run folders off the GUI thread (a run's requests.jsonl is counted line
  // by line); refreshed() follows once the list shows them. A newer refresh supersedes one still
  // scanning.
  void refresh();
  // Loads the run folder (off the GUI thread); run_loaded follows.
  void open_run(const QString& run_dir);
  models::RunHistoryModel* model() { return &model_; }
  QTableView* table() const { return table_; }
  StoredCharts* charts() const { return charts_; }
  EffectsView* effects() const { return effects_; }
  void show_effects();  // the Effects tab of the open run
  std::shared_ptr<const LoadedRun> current_run() const { return current_; }
  QString banner_text() const;  // the incomplete-run banner; empty when hidden
  QString shards_text() const;  // a merged run's shards line; empty when hidden

 signals:
  void open_requested(const QString& run_dir);
  void run_loaded(std::shared_ptr<const lb::ui::LoadedRun> run);
  void status(const QString& text);
  void refreshed();

 private:
  QWidget* build_detail();
  void open_current();
  void on_loaded(std::shared_ptr<const LoadedRun> run);
  void show_runs(std::vector<models::RunFolderInfo> runs);
  // The columns at their contents' widths, then the run's name and its experiments (the widest
  // texts) narrowed, down to a least width, till the last columns are in view; not once the user
  // has resized a column, till the next scan.
  void fit_columns();
  void fit_columns_now();
  bool eventFilter(QObject* watched, QEvent* event) override;  // the table's viewport resized

  Workspace& workspace_;
  std::shared_ptr<widgets::LanePalette> palette_;
  models::RunHistoryModel model_;
  RunFolderJob loader_;
  QString opened_;  // the run last opened, kept selected across a refresh
  // Selects RUN_DIR's row; false when the table has none.
  bool select_run(const QString& run_dir);
  std::shared_ptr<const LoadedRun> current_;
  int scan_generation_ = 0;
  std::vector<int> content_widths_;  // each column's, as the last scan's rows need
  bool fitting_ = false;
  bool user_sized_ = false;  // a column the user resized keeps its width till the next scan
  QTableView* table_ = nullptr;
  QLabel* empty_ = nullptr;
  QLabel* detail_title_ = nullptr;
  QLabel* banner_ = nullptr;
  QLabel* shards_ = nullptr;  // where a merged run's shards ran
  void show_shards(const report::RunFolder& folder, QStringList& notes);
  StoredCharts* charts_ = nullptr;
  EffectsView* effects_ = nullptr;
  QTabWidget* views_ = nullptr;
};

}  // namespace lb::ui
