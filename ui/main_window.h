#pragma once
// The workbench window: a page list on the left (Lanes, Prompt sets, Run, Review, Runs) and the
// File and Help menus. Each page lives in its own file and owns its own behaviour; the window only
// switches pages, opens workspaces and routes status messages.
#include <QMainWindow>
#include <memory>

#include "ui/workspace/workspace.h"

class QListWidget;
class QStackedWidget;

namespace lb::widgets {
class LanePalette;
}

namespace lb::ui {

class LanesPage;
class PromptSetsPage;
class RunPage;
class ReviewPage;
class DecisionPage;
class VerifyPage;
class ReportExportJob;
class RunsPage;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  enum Page { Lanes, PromptSets, Run, Review, Decision, Runs, Verify };
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  bool open_workspace(const QString& dir, QString* error);
  // Opens a run folder from anywhere on disk on the Runs, Review and Decision pages.
  bool open_run_dir(const QString& dir, QString* error);
  void show_page(Page page);
  Workspace& workspace() { return workspace_; }
  LanesPage* lanes_page() const { return lanes_; }
  PromptSetsPage* prompt_sets_page() const { return prompt_sets_; }
  RunPage* run_page() const { return run_; }
  ReviewPage* review_page() const { return review_; }
  RunsPage* runs_page() const { return runs_; }
  DecisionPage* decision_page() const { return decision_; }
  VerifyPage* verify_page() const { return verify_; }

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void build_menus();
  void new_workspace();
  void choose_workspace();
  void export_chart(const QString& suffix);
  void about();
  void open_run_for_review(const QString& run_dir);
  void open_plan();
  void offer_demo_plan();
  void save_plan();
  void open_run_folder();
  void add_experiment();
  void add_qualification_pages();
  void export_report();
  void remember_workspace(const QString& dir);
  void rebuild_recent_menu();

  Workspace workspace_;
  std::shared_ptr<widgets::LanePalette> palette_;
  QListWidget* nav_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  LanesPage* lanes_ = nullptr;
  PromptSetsPage* prompt_sets_ = nullptr;
  RunPage* run_ = nullptr;
  ReviewPage* review_ = nullptr;
  RunsPage* runs_ = nullptr;
  DecisionPage* decision_ = nullptr;
  VerifyPage* verify_ = nullptr;
  ReportExportJob* report_export_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  bool close_after_stop_ =
      false;  // the user closed the window during a run; it closes once stopped
};

}  // namespace lb::ui
