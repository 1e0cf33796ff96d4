#include "ui/pages/run_page.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "models/item_roles.h"
#include "models/lane_stats_model.h"
#include "ui/prompts/prompt_set_store.h"
#include "ui/run/experiment_form.h"
#include "ui/run/live_charts.h"
#include "ui/run/plan_progress_view.h"
#include "ui/run/plan_start_gate.h"
#include "ui/run/server_state_view.h"
#include "ui/workspace/lane_json.h"
#include "ui/workspace/workspace.h"
#include "widgets/lane_palette.h"
#include "widgets/table/provenance_delegate.h"

namespace lb::ui {

RunPage::RunPage(Workspace& workspace, std::shared_ptr<widgets::LanePalette> palette,
                 QWidget* parent)
    : QWidget(parent), workspace_(workspace), palette_(std::move(palette)) {
  gate_ = new PlanStartGate(
      workspace_, this, [this] { return run_in_progress(); },
      [this](plan::Plan plan, const QString& run_dir, bool append, bool launch_allowed,
             QString* error) {
        return run_plan(std::move(plan), run_dir, append, launch_allowed, error);
      });
  connect(gate_, &PlanStartGate::busy_changed, this, [this] { update_start_buttons(); });
  connect(gate_, &PlanStartGate::status, this, &RunPage::status);
  connect(gate_, &PlanStartGate::answered, this, &RunPage::start_answered);
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(build_setup_panel());
  splitter->addWidget(build_live_panel());
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({300, 1000});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(build_offer());
  layout->addWidget(splitter, 1);
  connect(&controller_, &RunController::updated, this, &RunPage::on_updated);
  connect(&controller_, &RunController::message, this, &RunPage::on_message);
  connect(&controller_, &RunController::finished, this, &RunPage::on_finished);
  connect(&controller_, &RunController::experiment_ending, this,
          [this] { charts_->keep_drawn(controller_.data()); });
  connect(&controller_, &RunController::experiment_started, this, &RunPage::on_experiment_started);
  connect(&controller_, &RunController::section_done, this, &RunPage::on_section_done);
  overlay_loader_ = new RunFolderJob(this);
  connect(overlay_loader_, &RunFolderJob::loaded, this, &RunPage::on_overlay_loaded);
  reload_lanes();
  reload_prompt_sets();
  set_running(false);
}

QWidget* RunPage::build_setup_panel() {
  auto* panel = new QWidget(this);
  panel->setMinimumWidth(270);
  panel->setMaximumWidth(380);
  auto* lanes_box = new QGroupBox(tr("Lanes"), panel);
  lanes_ = new QListWidget(lanes_box);
  lanes_->setAccessibleName(tr("Lanes to run"));
  auto* lanes_layout = new QVBoxLayout(lanes_box);
  lanes_layout->addWidget(lanes_);
  auto* exp_box = new QGroupBox(tr("Experiment"), panel);
  form_ = new ExperimentForm(exp_box);
  auto* exp_layout = new QVBoxLayout(exp_box);
  exp_layout->addWidget(form_);
  start_ = new QPushButton(tr("&Start"), panel);
  start_->setObjectName("startRun");
  start_->setDefault(true);
  start_->setToolTip(tr("Start the run (Ctrl+Return)"));
  stop_ = new QPushButton(tr("S&top"), panel);
  stop_->setToolTip(tr("Stop the run, keeping every finished request (Ctrl+.)"));
  connect(start_, &QPushButton::clicked, this, &RunPage::on_start_clicked);
  connect(stop_, &QPushButton::clicked, this, &RunPage::stop_run);
  add_ = new QPushButton(tr("&Add to This Run"), panel);
  add_->setObjectName("addToRun");
  add_->setAccessibleName(tr("Add Experiment to This Run"));
  connect(add_, &QPushButton::clicked, this, &RunPage::on_add_clicked);
  auto* add_key = new QShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return), this);
  connect(add_key, &QShortcut::activated, this, &RunPage::on_add_clicked);
  auto* start_key = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
  connect(start_key, &QShortcut::activated, this, &RunPage::on_start_clicked);
  auto* stop_key = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period), this);
  connect(stop_key, &QShortcut::activated, this, &RunPage::stop_run);
  progress_ = new QProgressBar(panel);
  progress_->setRange(0, 1000);
  progress_->setTextVisible(true);
  progress_label_ = new QLabel(panel);
  progress_label_->setWordWrap(true);
  log_ = new QPlainTextEdit(panel);
  log_->setObjectName("runLog");
  log_->setAccessibleName(tr("Messages"));
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(500);
  log_->setPlaceholderText(tr("Messages from the run appear here."));
  // The newest line stays in view, unless the user scrolled up to read an older one (and
  // until they scroll back to the end). The range grows after a line is laid out, so the
  // view follows the range, not the append.
  QScrollBar* bar = log_->verticalScrollBar();
  connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int max) {
    if (log_follows_) bar->setValue(max);
  });
  connect(bar, &QScrollBar::valueChanged, this,
          [this, bar](int value) { log_follows_ = value >= bar->maximum() - 1; });
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(start_);
  buttons->addWidget(stop_);
  buttons->addWidget(add_);
  // While a plan runs, the plan as it runs stands in place of the form.
  setup_form_ = new QWidget(panel);
  auto* form_layout = new QVBoxLayout(setup_form_);
  form_layout->setContentsMargins(0, 0, 0, 0);
  form_layout->addWidget(lanes_box, 1);
  form_layout->addWidget(exp_box);
  plan_view_ = new PlanProgressView(panel);
  setup_stack_ = new QStackedWidget(panel);
  setup_stack_->addWidget(setup_form_);
  setup_stack_->addWidget(plan_view_);
  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(8, 8, 4, 8);
  layout->addWidget(setup_stack_, 1);
  layout->addLayout(buttons);
  layout->addWidget(progress_);
  layout->addWidget(progress_label_);
  layout->addWidget(new QLabel(tr("Messages"), panel));
  layout->addWidget(log_, 1);
  return panel;
}

QTableView* RunPage::make_stats_view(QAbstractItemModel* model, QWidget* parent) {
  auto* view = new QTableView(parent);
  view->setModel(model);
  view->setItemDelegate(new widgets::ProvenanceDelegate(models::ProvenanceRole, view));
  view->verticalHeader()->hide();
  view->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  view->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  view->horizontalHeader()->setMinimumHeight(40);
  // A figure and its badge stay whole in a narrow window ("1.00" read "1." over "00" at
  // 1280x800): no column is narrower than five digits and a decimal beside a badge; the table
  // scrolls instead.
  view->horizontalHeader()->setMinimumSectionSize(
      view->fontMetrics().horizontalAdvance(QStringLiteral("99999.9")) +
      widgets::ProvenanceDelegate::kBadgeSpacePx + 12);
  // A figure with its interval takes two lines ("x" over "[lo, hi]").
  view->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  // Header plus three rows stay visible however the charts are sized.
  view->setMinimumHeight(40 + 3 * view->verticalHeader()->defaultSectionSize() + 6);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setToolTip(
      tr("Badges: M measured by the client clock, S reported by the server, "
         "E estimated"));
  return view;
}

QWidget* RunPage::build_live_panel() {
  auto* splitter = new QSplitter(Qt::Vertical, this);
  chart_tabs_ = new QTabWidget(splitter);
  chart_tabs_->setTabBarAutoHide(true);  // one experiment: no tab bar
  chart_tabs_->setDocumentMode(true);
  chart_tabs_->setAccessibleName(tr("Charts per experiment"));
  open_chart_tab(form_->kind(), true);
  tables_ = new QTabWidget(splitter);
  stats_view_ = make_stats_view(controller_.stats_model(), tables_);
  stats_view_->setAccessibleName(tr("Per-lane statistics"));
  phase_view_ = make_stats_view(controller_.phase_model(), tables_);
  phase_view_->setAccessibleName(tr("Statistics per lane and phase"));
  phase_view_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  // Columns whose figures carry an interval take the width it needs; the others share the rest.
  for (int c = 0; c < models::LaneStatsModel::ColumnCount; ++c) {
    if (!*models::LaneStatsModel::interval_key(c)) continue;
    stats_view_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    phase_view_->horizontalHeader()->setSectionResizeMode(c + 1, QHeaderView::ResizeToContents);
  }
  tables_->addTab(stats_view_, tr("Per &lane"));
  tables_->addTab(phase_view_, tr("Per p&hase"));
  servers_view_ = new ServerStateView(tables_);
  tables_->addTab(servers_view_, tr("Ser&vers"));
  connect(&controller_, &RunController::gates_scored, this,
          [this](const std::vector<record::GateResult>& results) {
            for (const record::GateResult& r : results) gate_scores_.apply(r);
            charts_->set_gate_scores(gate_scores_);
          });
  connect(&controller_, &RunController::servers_changed, this, [this] {
    const bool first = servers_view_->row_count() == 0 && !controller_.servers().empty();
    servers_view_->set_servers(controller_.servers());
    if (first) show_servers_tab();  // a plan's first server brings its state to the front
  });
  splitter->addWidget(chart_tabs_);
  splitter->addWidget(tables_);
  splitter->setStretchFactor(0, 4);
  splitter->setStretchFactor(1, 1);
  connect(form_, &ExperimentForm::kind_changed, this, [this](const QString& kind) {
    if (!controller_.running()) show_kind(kind);
  });
  show_kind(form_->kind());
  return splitter;
}

void RunPage::show_kind(const QString& name) {
  using record::ExperimentKind;
  charts_->set_kind(name);
  const std::optional<ExperimentKind> kind = record::experiment_kind_from(name.toStdString());
  QString phase = tr("Phase");
  if (kind == ExperimentKind::ContextSweep) phase = tr("Prompt\n(tok)");
  if (kind == ExperimentKind::PrefixCache) phase = tr("Pass");
  if (kind == ExperimentKind::Throughput || kind == ExperimentKind::Speculative)
    phase = tr("Level");
  controller_.phase_model()->set_phase_title(phase);
  // Kinds measured per phase show that table first; a regression has one phase per lane. While
  // a plan's servers are shown, they stay in front.
  if (controller_.running() && tables_->currentWidget() == servers_view_) return;
  const bool one_phase = kind && (record::is_reviewable(*kind) || *kind == ExperimentKind::Gates);
  tables_->setCurrentWidget(one_phase ? stats_view_ : phase_view_);
}

void RunPage::show_servers_tab() { tables_->setCurrentWidget(servers_view_); }

bool RunPage::showing_plan() const { return setup_stack_->currentWidget() == plan_view_; }

void RunPage::open_chart_tab(const QString& title, bool fresh_run) {
  if (fresh_run) {
    while (chart_tabs_->count() > 1) {
      QWidget* old = chart_tabs_->widget(chart_tabs_->count() - 1);
      chart_tabs_->removeTab(chart_tabs_->count() - 1);
      old->deleteLater();
    }
  }
  if (fresh_run && chart_tabs_->count() == 1) {
    charts_ = qobject_cast<LiveCharts*>(chart_tabs_->widget(0));
    charts_->clear();
    chart_tabs_->setTabText(0, title);
    chart_tabs_->setCurrentIndex(0);
    return;
  }
  auto* charts = new LiveCharts(palette_, chart_tabs_);
  connect(charts, &LiveCharts::overlay_requested, this, &RunPage::on_overlay_requested);
  charts_ = charts;
  chart_tabs_->setCurrentIndex(chart_tabs_->addTab(charts, title));
}

void RunPage::overlay_run(const QString& run_dir) { overlay_loader_->load(run_dir); }

void RunPage::on_overlay_requested() {
  const QString dir = QFileDialog::getExistingDirectory(
      this, tr("Overlay a Run: choose its run folder"), workspace_.runs_dir());
  if (!dir.isEmpty()) overlay_run(dir);
}

void RunPage::on_overlay_loaded(const std::shared_ptr<const LoadedRun>& run) {
  if (!run->folder) {
    QMessageBox::warning(this, tr("Cannot overlay the run"),
                         tr("%1 cannot be read: %2").arg(run->dir, run->error));
    return;
  }
  const QString name = QDir(run->dir).dirName();
  charts_->set_overlay(name, std::shared_ptr<const StoredRunSeries>(run, &run->series));
  emit status(tr("Overlaid %1 on the charts (dashed, named %1:lane)").arg(name));
}

void RunPage::reload_lanes() {
  const QStringList previously = checked_lanes();
  lanes_->clear();
  for (const plan::Lane& lane : workspace_.lanes()) {
    const QString id = QString::fromStdString(lane.id);
    auto* item = new QListWidgetItem(lane_swatch(palette_->colorFor(id)), id, lanes_);
    item->setToolTip(QString::fromStdString(lane.base_url));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(previously.isEmpty() || previously.contains(id) ? Qt::Checked
                                                                        : Qt::Unchecked);
  }
  QHash<QString, QColor> colors;
  for (const plan::Lane& lane : workspace_.lanes())
    colors.insert(QString::fromStdString(lane.id),
                  palette_->colorFor(QString::fromStdString(lane.id)));
  controller_.stats_model()->set_lane_colors(colors);
  controller_.phase_model()->set_lane_colors(colors);
}

void RunPage::reload_prompt_sets() {
  std::vector<std::pair<QString, QString>> sets;
  for (const PromptSetEntry& entry : list_prompt_sets(workspace_.dir()))
    sets.emplace_back(entry.ref, entry.label);
  form_->set_prompt_sets(sets);
}

QStringList RunPage::checked_lanes() const {
  QStringList out;
  for (int i = 0; i < lanes_->count(); ++i)
    if (lanes_->item(i)->checkState() == Qt::Checked) out << lanes_->item(i)->text();
  return out;
}

void RunPage::set_checked_lanes(const QStringList& lanes) {
  for (int i = 0; i < lanes_->count(); ++i)
    lanes_->item(i)->setCheckState(lanes.contains(lanes_->item(i)->text()) ? Qt::Checked
                                                                           : Qt::Unchecked);
}

}  // namespace lb::ui
