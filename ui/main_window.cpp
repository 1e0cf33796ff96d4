#include "ui/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>

#include "core/report/report_writer.h"
#include "ui/keyring/keyring_lookup.h"
#include "ui/pages/decision_page.h"
#include "ui/pages/lanes_page.h"
#include "ui/pages/prompt_sets_page.h"
#include "ui/pages/review_page.h"
#include "ui/pages/run_page.h"
#include "ui/pages/runs_page.h"
#include "ui/pages/verify_page.h"
#include "ui/report/report_export_job.h"
#include "ui/run/experiment_form.h"
#include "ui/run/live_charts.h"
#include "ui/workspace/demo_plan.h"
#include "widgets/chart/chart_panel.h"
#include "widgets/lane_palette.h"

namespace lb::ui {
namespace {
constexpr int kMaxRecent = 8;
constexpr int kStatusTimeoutMs = 8000;
}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), palette_(std::make_shared<widgets::LanePalette>()) {
  setWindowTitle("LaneBench");
  nav_ = new QListWidget(this);
  nav_->setAccessibleName(tr("Pages"));
  nav_->setFixedWidth(150);
  nav_->setIconSize(QSize(20, 20));
  nav_->setSpacing(2);
  nav_->setStyleSheet(
      "QListWidget { border: none; background: palette(window); font-size: 11pt; }"
      "QListWidget::item { padding: 8px 6px; }"
      "QListWidget::item:selected { background: palette(highlight); "
      "color: palette(highlighted-text); border-radius: 4px; }");
  const std::pair<QString, QStyle::StandardPixmap> pages[] = {
      {tr("Lanes"), QStyle::SP_DriveNetIcon},
      {tr("Prompt sets"), QStyle::SP_FileDialogDetailedView},
      {tr("Run"), QStyle::SP_MediaPlay},
      {tr("Review"), QStyle::SP_FileDialogContentsView},
      {tr("Runs"), QStyle::SP_DirOpenIcon}};
  for (const auto& [label, icon] : pages)
    new QListWidgetItem(style()->standardIcon(icon), label, nav_);
  stack_ = new QStackedWidget(this);
  lanes_ = new LanesPage(workspace_, palette_, stack_);
  prompt_sets_ = new PromptSetsPage(workspace_, stack_);
  run_ = new RunPage(workspace_, palette_, stack_);
  review_ = new ReviewPage(stack_);
  runs_ = new RunsPage(workspace_, palette_, stack_);
  for (QWidget* page :
       {static_cast<QWidget*>(lanes_), static_cast<QWidget*>(prompt_sets_),
        static_cast<QWidget*>(run_), static_cast<QWidget*>(review_), static_cast<QWidget*>(runs_)})
    stack_->addWidget(page);
  add_qualification_pages();
  connect(nav_, &QListWidget::currentRowChanged, stack_, &QStackedWidget::setCurrentIndex);
  auto* central = new QWidget(this);
  auto* layout = new QHBoxLayout(central);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(nav_);
  layout->addWidget(stack_, 1);
  setCentralWidget(central);

  auto to_status = [this](const QString& text) {
    statusBar()->showMessage(text, kStatusTimeoutMs);
  };
  connect(lanes_, &LanesPage::status, this, to_status);
  connect(prompt_sets_, &PromptSetsPage::status, this, to_status);
  connect(prompt_sets_, &PromptSetsPage::sets_changed, run_, &RunPage::reload_prompt_sets);
  connect(run_, &RunPage::status, this, to_status);
  connect(review_, &ReviewPage::status, this, to_status);
  connect(lanes_, &LanesPage::lanes_changed, run_, &RunPage::reload_lanes);
  connect(runs_, &RunsPage::open_requested, this, &MainWindow::open_run_for_review);
  connect(runs_, &RunsPage::run_loaded, decision_, &DecisionPage::set_run);
  connect(review_, &ReviewPage::verdicts_changed, decision_, &DecisionPage::apply_review);
  connect(runs_, &RunsPage::run_loaded, this, [this](std::shared_ptr<const LoadedRun> run) {
    if (run && run->folder) run_->set_open_run(run->dir);
  });
  connect(runs_, &RunsPage::status, this, to_status);
  connect(decision_, &DecisionPage::status, this, to_status);
  connect(decision_, &DecisionPage::saved, runs_, &RunsPage::refresh);
  connect(verify_, &VerifyPage::status, this, to_status);
  // A finished run becomes the open one: its charts on Runs, its gates on Decision.
  connect(run_, &RunPage::run_finished, runs_,
          [this](const QString& dir) { runs_->open_run(dir); });
  connect(run_, &RunPage::run_finished, this, [this](const QString& dir, bool has_review) {
    runs_->refresh();
    if (has_review) review_->open_run(dir);
  });
  build_menus();
  nav_->setCurrentRow(Run);
  resize(1440, 900);
}

MainWindow::~MainWindow() = default;

void MainWindow::build_menus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&New Workspace…"), QKeySequence::New, this, &MainWindow::new_workspace);
  file->addAction(tr("&Open Workspace…"), QKeySequence::Open, this, &MainWindow::choose_workspace);
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  rebuild_recent_menu();
  file->addSeparator();
  file->addAction(tr("Open &Plan…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this,
                  &MainWindow::open_plan);
  file->addAction(tr("&Save Plan…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this,
                  &MainWindow::save_plan);
  file->addAction(tr("&Add Experiment to This Run"), this, &MainWindow::add_experiment);
  file->addAction(tr("Open R&un…"), this, &MainWindow::open_run_folder);
  file->addSeparator();
  QMenu* export_menu = file->addMenu(tr("&Export Chart"));
  export_menu->addAction(tr("As &PNG…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                         [this] { export_chart("png"); });
  export_menu->addAction(tr("As &SVG…"), this, [this] { export_chart("svg"); });
  export_menu->addAction(tr("As P&DF…"), this, [this] { export_chart("pdf"); });
  file->addAction(tr("Export Re&port…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this,
                  &MainWindow::export_report);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
  QMenu* go = menuBar()->addMenu(tr("&Go"));
  const QString names[] = {tr("&Lanes"),    tr("&Prompt Sets"), tr("&Run"),   tr("Re&view"),
                           tr("&Decision"), tr("R&uns"),        tr("V&erify")};
  for (int i = 0; i < static_cast<int>(std::size(names)); ++i)
    go->addAction(names[i], QKeySequence(Qt::CTRL | (Qt::Key_1 + i)), this,
                  [this, i] { show_page(static_cast<Page>(i)); });
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About LaneBench"), this, &MainWindow::about);
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::show_page(Page page) { nav_->setCurrentRow(page); }

bool MainWindow::open_workspace(const QString& dir, QString* error) {
  Workspace next;
  if (!next.open(dir, error)) return false;
  if (run_->controller()->running()) {
    *error = tr("A run is in progress: stop it before opening another workspace.");
    return false;
  }
  workspace_ = std::move(next);
  // Keyring lanes read the keys of this workspace only (ui/keyring/secret_store.h).
  register_keyring_lookup(workspace_.id().toStdString());
  lanes_->reload();
  prompt_sets_->reload();
  run_->reload_lanes();
  run_->reload_prompt_sets();
  runs_->refresh();
  verify_->set_runs_dir(workspace_.runs_dir());
  offer_demo_plan();
  setWindowTitle(tr("LaneBench — %1").arg(workspace_.name()));
  remember_workspace(workspace_.dir());
  statusBar()->showMessage(tr("Workspace %1").arg(workspace_.dir()), kStatusTimeoutMs);
  return true;
}

void MainWindow::new_workspace() {
  const QString dir =
      QFileDialog::getExistingDirectory(this, tr("New Workspace (choose an empty folder)"));
  if (dir.isEmpty()) return;
  QString error;
  if (!open_workspace(dir, &error))
    QMessageBox::critical(this, tr("Cannot create the workspace"), error);
}

void MainWindow::choose_workspace() {
  const QString dir =
      QFileDialog::getExistingDirectory(this, tr("Open Workspace"), workspace_.dir());
  if (dir.isEmpty()) return;
  QString error;
  if (!open_workspace(dir, &error))
    QMessageBox::critical(this, tr("Cannot open the workspace"), error);
}

void MainWindow::remember_workspace(const QString& dir) {
  QSettings settings;
  QStringList recent = settings.value("recent_workspaces").toStringList();
  recent.removeAll(dir);
  recent.prepend(dir);
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue("recent_workspaces", recent);
  rebuild_recent_menu();
}

void MainWindow::rebuild_recent_menu() {
  recent_menu_->clear();
  const QStringList recent = QSettings().value("recent_workspaces").toStringList();
  for (const QString& dir : recent)
    recent_menu_->addAction(dir, this, [this, dir] {
      QString error;
      if (!open_workspace(dir, &error))
        QMessageBox::critical(this, tr("Cannot open the workspace"), error);
    });
  recent_menu_->setEnabled(!recent.isEmpty());
}

void MainWindow::export_chart(const QString& suffix) {
  show_page(Run);
  run_->charts()->current_panel()->export_with_dialog(suffix);
}

// The Runs page shows the opened run's charts and hands it to Decision; Review loads its outputs.
void MainWindow::open_run_for_review(const QString& run_dir) { review_->open_run(run_dir); }

// A workspace holding the demo qualification plan offers to run it, while it has no run yet.
void MainWindow::offer_demo_plan() {
  const QString path = QDir(workspace_.plans_dir()).filePath(kDemoPlanFile);
  const bool fresh = QDir(workspace_.runs_dir()).isEmpty();
  run_->offer_plan(
      QFileInfo::exists(path) && fresh ? path : QString(),
      tr("<b>Demo qualification.</b> Run FP8 and FP8+MTP3 against the BF16 baseline on the "
         "built-in simulator: regression, functional gates, context sweep, prefix cache burst and "
         "speculative decoding, into one run with one Decision page (about 1½ minutes). The plan "
         "is %1; File > Open Plan runs it any time.")
          .arg(QDir::toNativeSeparators(path).toHtmlEscaped()));
}

// A plan file runs whole into one new run, shown live on the Run page.
void MainWindow::open_plan() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Plan"), workspace_.plans_dir(),
                                                    tr("Plan files (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  show_page(Run);
  run_->open_plan_file(path);  // checked off the GUI thread; a problem is shown by the page
}

void MainWindow::save_plan() {
  const QString suggested =
      QDir(workspace_.plans_dir()).filePath(run_->experiment_form()->kind() + "-plan.json");
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Save Plan"), suggested, tr("Plan files (*.json)"));
  if (path.isEmpty()) return;
  QString error;
  if (!run_->save_plan_file(path, &error))
    QMessageBox::warning(this, tr("Cannot save the plan"), error);
}

void MainWindow::add_experiment() {
  show_page(Run);
  QString error;
  if (!run_->add_experiment(&error))
    QMessageBox::warning(this, tr("Cannot add the experiment"), error);
}

// Any run folder on disk, made by the workbench or by lanebench-cli: its charts on Runs, its
// outputs on Review, its gates on Decision.
void MainWindow::open_run_folder() {
  const QString dir =
      QFileDialog::getExistingDirectory(this, tr("Open Run Folder"), workspace_.runs_dir());
  if (dir.isEmpty()) return;
  QString error;
  if (!open_run_dir(dir, &error)) QMessageBox::warning(this, tr("Cannot open the run"), error);
}

bool MainWindow::open_run_dir(const QString& dir, QString* error) {
  const QDir run(dir);
  if (!run.exists("summary.json") && !run.exists("requests.jsonl") && !run.exists("plan.json")) {
    *error =
        tr("%1 is not a run folder: it has no summary.json, plan.json or requests.jsonl.").arg(dir);
    return false;
  }
  runs_->open_run(dir);
  review_->open_run(dir);
  show_page(Runs);
  return true;
}

// Decision after Review, Verify last: inserted at their Page positions in the list and the stack.
void MainWindow::add_qualification_pages() {
  decision_ = new DecisionPage(stack_);
  verify_ = new VerifyPage(stack_);
  report_export_ = new ReportExportJob(this);
  connect(report_export_, &ReportExportJob::finished, this, [this](const ReportExportResult& r) {
    QStringList names;  // the report's own files; the copied texts are summed up
    int texts = 0;
    for (const QString& name : r.written) {
      if (name.startsWith("texts/"))
        ++texts;
      else
        names << name;
    }
    if (texts > 0) names << tr("texts/ (%1 files)").arg(texts);
    const QString text = tr("Report written to %1: %2").arg(r.out_dir, names.join(", "));
    statusBar()->showMessage(r.errors.isEmpty() ? text : text + " — " + r.errors.join("; "));
    if (!r.errors.isEmpty())
      QMessageBox::warning(this, tr("The report is incomplete"), r.errors.join("\n"));
  });
  stack_->insertWidget(Decision, decision_);
  stack_->insertWidget(Verify, verify_);
  nav_->insertItem(
      Decision,
      new QListWidgetItem(style()->standardIcon(QStyle::SP_DialogApplyButton), tr("Decision")));
  nav_->insertItem(
      Verify, new QListWidgetItem(style()->standardIcon(QStyle::SP_DriveHDIcon), tr("Verify")));
}

// The open run's report into a folder the user picks (RUN/report by default), off the GUI thread.
void MainWindow::export_report() {
  const QString run_dir = decision_->run_dir();
  if (run_dir.isEmpty()) {
    QMessageBox::information(this, tr("Export Report"),
                             tr("Open a run on the Runs page first: the report is made from its "
                                "folder."));
    return;
  }
  if (report_export_->running()) {
    statusBar()->showMessage(tr("A report is already being written."), kStatusTimeoutMs);
    return;
  }
  const QString suggested = QDir(run_dir).filePath("report");
  QDir().mkpath(suggested);
  const QString out = QFileDialog::getExistingDirectory(this, tr("Export Report Into"), suggested);
  if (out.isEmpty()) return;
  report_export_->start(run_dir, out, report::report_format_names());
  statusBar()->showMessage(tr("Writing the report of %1 (HTML, Markdown, PDF, chart PNGs, CSV, "
                              "JSON)…")
                               .arg(QDir(run_dir).dirName()));
}

void MainWindow::about() {
  QMessageBox::about(
      this, tr("About LaneBench"),
      tr("<h3>LaneBench %1</h3><p>A workbench that decides, with evidence, whether a new LLM "
         "serving configuration may replace the current one: honest speed measurements, "
         "prompt-by-prompt output comparison and a qualification record.</p>"
         "<p>Figures carry their provenance: <b>M</b> measured by the client clock, <b>S</b> "
         "reported by the server, <b>E</b> estimated.</p>")
          .arg(QApplication::applicationVersion()));
}

void MainWindow::closeEvent(QCloseEvent* event) {
  // Unsaved prompt edits and decisions: saved, dropped on purpose, or the window stays open.
  if (!close_after_stop_ && (!prompt_sets_->confirm_discard() || !decision_->confirm_discard())) {
    event->ignore();
    return;
  }
  RunController* controller = run_->controller();
  if (controller->running()) {
    // Never wait for the run here: stop it, keep the window (it shows "Stopping…", then "Still
    // stopping" after a second), and close when the run reports that it has stopped.
    if (!close_after_stop_) {
      const auto answer = QMessageBox::question(
          this, tr("Stop the run?"),
          tr("A run is in progress. Quit and stop it? Finished requests are kept."));
      if (answer != QMessageBox::Yes) {
        event->ignore();
        return;
      }
      close_after_stop_ = true;
      connect(controller, &RunController::finished, this, &MainWindow::close,
              static_cast<Qt::ConnectionType>(Qt::QueuedConnection | Qt::SingleShotConnection));
      run_->stop_run();
      show_page(Run);
    }
    statusBar()->showMessage(tr("Stopping the run; the window closes once it has stopped."));
    event->ignore();
    return;
  }
  event->accept();
}

}  // namespace lb::ui
