// RunPage: plans. A plan file runs whole into one run (through the PlanStartGate); the page's
// settings save as a plan file; an experiment is added to the open run. A plan's experiments each
// get the charts of their kind as they start.
#include <QDir>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>

#include "core/plan/plan.h"
#include "ui/pages/run_page.h"
#include "ui/run/experiment_form.h"
#include "ui/run/live_charts.h"
#include "ui/run/plan_start_gate.h"
#include "ui/workspace/workspace.h"

namespace lb::ui {

QString RunPage::run_in_progress() const {
  return controller_.running() ? tr("A run is in progress: stop it first.") : QString();
}

QString RunPage::why_not_now() const {
  if (QString why = run_in_progress(); !why.isEmpty()) return why;
  return checking_plan() ? tr("A plan is being checked: wait for it first.") : QString();
}

void RunPage::open_plan_file(const QString& path) {
  if (const QString why = why_not_now(); !why.isEmpty()) return gate_->refuse(why);
  const QString name = QFileInfo(path).fileName();
  emit status(tr("Checking the plan %1 and the files it names…").arg(name));
  gate_->check({name, QString(), QString(), true},
               [file = path.toStdString()] { return plan::load_plan_file(file); });
}

bool RunPage::checking_plan() const { return gate_->busy(); }

bool RunPage::save_plan_file(const QString& path, QString* error) {
  const nlohmann::json plan_json = form_plan_json(error);
  if (plan_json.is_null()) return false;
  // What is saved must be what runs: the same parser as `lanebench-cli run` judges it first.
  plan::PlanParseResult parsed = plan::parse_plan(plan_json.dump(), "run settings");
  if (!parsed.ok()) {
    *error = QString::fromStdString(parsed.error_text());
    return false;
  }
  const std::string text = plan_json.dump(2) + "\n";
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) ||
      file.write(text.data(), static_cast<qint64>(text.size())) < 0 || !file.commit()) {
    *error = tr("Cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  emit status(tr("Plan saved to %1 (lanebench-cli run %2 --out RUN_DIR runs it)")
                  .arg(path, QFileInfo(path).fileName()));
  return true;
}

bool RunPage::add_experiment(QString* error) {
  if (*error = why_not_now(); !error->isEmpty()) return false;
  if (open_run_.isEmpty()) {
    *error = tr("No run is open to add to: finish a run, or open one on the Runs page.");
    return false;
  }
  const nlohmann::json plan_json = form_plan_json(error);
  if (plan_json.is_null()) return false;
  plan::PlanParseResult parsed = plan::parse_plan(plan_json.dump(), "run settings");
  if (!parsed.ok()) {
    *error = QString::fromStdString(parsed.error_text());
    return false;
  }
  // Its files are checked off the GUI thread first, as for a new run (start_answered).
  emit status(tr("Checking the files the experiment reads…"));
  gate_->check({QString(), QString(), open_run_, false}, checked_settings(std::move(*parsed.plan)));
  return true;
}

void RunPage::set_open_run(const QString& run_dir) {
  open_run_ = run_dir;
  update_add_button();
}

void RunPage::update_start_buttons() {
  start_->setEnabled(!controller_.running() && !checking_plan());
  update_add_button();
}

void RunPage::update_add_button() {
  add_->setEnabled(!controller_.running() && !checking_plan() && !open_run_.isEmpty());
  add_->setToolTip(open_run_.isEmpty()
                       ? tr("Finish a run, or open one on the Runs page, to add experiments to "
                            "it")
                       : tr("Run this experiment into %1, so that the run's Decision page and "
                            "report take it with the others (Ctrl+Shift+Return)")
                             .arg(QDir(open_run_).dirName()));
}

void RunPage::on_add_clicked() {
  if (controller_.running()) return;
  QString error;
  if (!add_experiment(&error)) QMessageBox::warning(this, tr("Cannot add the experiment"), error);
}

QWidget* RunPage::build_offer() {
  offer_ = new QFrame(this);
  offer_->setObjectName("planOffer");
  offer_->setStyleSheet(
      "#planOffer { background: #e8f1fb; border: 1px solid #9cbfe6; border-radius: 4px; }");
  offer_text_ = new QLabel(offer_);
  offer_text_->setWordWrap(true);
  auto* run = new QPushButton(tr("&Run the Demo Qualification"), offer_);
  run->setAccessibleName(tr("Run the offered plan"));
  auto* dismiss = new QPushButton(tr("Not Now"), offer_);
  connect(run, &QPushButton::clicked, this, [this] { open_plan_file(offered_plan_); });
  connect(dismiss, &QPushButton::clicked, offer_, &QWidget::hide);
  auto* layout = new QHBoxLayout(offer_);
  layout->setContentsMargins(10, 6, 10, 6);
  layout->addWidget(offer_text_, 1);
  layout->addWidget(run);
  layout->addWidget(dismiss);
  offer_->hide();
  return offer_;
}

void RunPage::offer_plan(const QString& path, const QString& text) {
  offered_plan_ = path;
  offer_text_->setText(text);
  offer_->setVisible(!path.isEmpty());
}

void RunPage::on_section_done(int index, const record::ExperimentSection& section) {
  plan_view_->set_result(index, section);
  // The experiment's own charts, while they are the ones shown (a later one has its own tab).
  if (section.is(record::ExperimentKind::Throughput) && index == chart_experiment_)
    charts_->set_steady_windows(section, controller_.data());
  // The recorded results replace the live ones in the experiment's table, while it is shown.
  if (section.is(record::ExperimentKind::Gates) && index == chart_experiment_) {
    gate_scores_.apply_section(section);
    charts_->set_gate_scores(gate_scores_);
  }
}

void RunPage::on_experiment_started(int index, const QString& name, const QString& kind) {
  // Each experiment draws on charts of its own; the earlier ones stay a tab away.
  const QString title = name.isEmpty() ? kind : name;
  if (chart_experiment_ < 0)
    open_chart_tab(title, true);  // the run's start: the last run's tabs go
  else if (index != chart_experiment_)
    open_chart_tab(title, false);
  else
    chart_tabs_->setTabText(chart_tabs_->indexOf(charts_), title);
  chart_experiment_ = index;
  plan_view_->set_current(index);
  last_kind_ = kind;
  show_kind(kind);
  const std::optional<record::ExperimentKind> typed =
      record::experiment_kind_from(kind.toStdString());
  if (typed == record::ExperimentKind::Gates) {
    const auto at = static_cast<size_t>(index);
    gate_scores_.reset(plan_lanes_,
                       at < plan_checks_.size() ? plan_checks_[at] : std::vector<std::string>{});
    charts_->set_gate_scores(gate_scores_);
  }
  if (typed == record::ExperimentKind::Capacity &&
      static_cast<size_t>(index) < plan_capacity_.size()) {
    const plan::CapacityExperiment& c = plan_capacity_[static_cast<size_t>(index)];
    charts_->set_capacity_slo({c.ttft_p99_ms, c.tpot_p99_ms, c.by_rate()});
  }
  if (!name.isEmpty() && plan_kinds_.size() > 1)
    append_log(tr("▶ Experiment %1 of %2: %3").arg(index + 1).arg(plan_kinds_.size()).arg(name));
}

}  // namespace lb::ui
