// RunPage: starting a run once its plan passed the gate, stopping it, and following it.
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTableView>

#include "ui/pages/run_page.h"
#include "ui/run/experiment_form.h"
#include "ui/run/live_charts.h"
#include "ui/run/plan_progress_view.h"
#include "ui/workspace/key_allowances.h"
#include "ui/workspace/lane_json.h"
#include "ui/workspace/workspace.h"

namespace lb::ui {
namespace {

QString format_eta(double s) {
  if (s < 0) return QString();
  const int total = static_cast<int>(s + 0.5);
  return total >= 60 ? QObject::tr("%1 min %2 s left").arg(total / 60).arg(total % 60)
                     : QObject::tr("%1 s left").arg(total);
}

}  // namespace

nlohmann::json RunPage::form_plan_json(QString* error) const {
  const QStringList chosen = checked_lanes();
  if (chosen.isEmpty()) {
    *error = tr("Pick at least one lane to run.");
    return nullptr;
  }
  if (!form_->kind_available(form_->kind())) {
    *error = tr("The experiment \"%1\" is not available in this build.").arg(form_->kind());
    return nullptr;
  }
  QString form_error;
  nlohmann::json experiment = form_->experiment_json(&form_error);
  if (experiment.is_null()) {
    *error = form_error;
    return nullptr;
  }
  nlohmann::json lanes = nlohmann::json::array();
  for (const plan::Lane& lane : workspace_.lanes())
    if (chosen.contains(QString::fromStdString(lane.id))) lanes.push_back(lane_to_json(lane));
  const std::string name = workspace_.name().toStdString() + " " + form_->kind().toStdString();
  return {{"name", name}, {"lanes", lanes}, {"experiments", {std::move(experiment)}}};
}

bool RunPage::start_run(QString* error) {
  if (*error = why_not_now(); !error->isEmpty()) return false;
  const nlohmann::json plan_json = form_plan_json(error);
  if (plan_json.is_null()) return false;
  plan::PlanParseResult parsed = plan::parse_plan(plan_json.dump(), "run settings");
  if (!parsed.ok()) {
    *error = QString::fromStdString(parsed.error_text());
    return false;
  }
  // A trace, ShareGPT or prompt-set file is read off the GUI thread before any lane starts, so
  // a bad one is refused (file and line) and a big one does not stop the window.
  emit status(tr("Checking the files the run reads…"));
  gate_->check({QString(), form_->kind(), QString(), false},
               checked_settings(std::move(*parsed.plan)));
  return true;
}

// The check job of a plan made from the page's settings: its files are read as a plan file's.
std::function<plan::PlanParseResult()> RunPage::checked_settings(plan::Plan plan) {
  return [plan = std::move(plan)]() mutable {
    plan::PlanParseResult checked;
    checked.source_name = "run settings";
    checked.errors = plan::check_plan_files(plan, std::string());
    if (checked.errors.empty()) checked.plan = std::move(plan);
    return checked;
  };
}

// Starts PLAN into RUN_DIR, a new run or (append) the open one; the charts follow each
// experiment as it starts (on_experiment_started).
bool RunPage::run_plan(plan::Plan plan, const QString& run_dir, bool append, bool launch_allowed,
                       QString* error) {
  offer_->hide();
  QHash<QString, QColor> colors;
  QStringList lanes;
  std::vector<std::pair<QString, QColor>> lane_colors;
  for (const plan::Lane& lane : plan.lanes) {
    const QString id = QString::fromStdString(lane.id);
    colors.insert(id, palette_->colorFor(id));
    lane_colors.emplace_back(id, colors.value(id));
    lanes << id;
  }
  plan_view_->set_plan(plan, lane_colors);
  controller_.stats_model()->set_lane_colors(colors);
  controller_.phase_model()->set_lane_colors(colors);
  plan_kinds_.clear();
  plan_checks_.clear();
  plan_capacity_.clear();
  plan_lanes_ = lanes;
  for (const plan::Experiment& e : plan.experiments) {
    plan_kinds_ << QString::fromStdString(e.kind);
    const auto* gates = std::get_if<plan::GatesExperiment>(&e.params);
    plan_checks_.push_back(gates ? gates->checks : std::vector<std::string>{});
    const auto* capacity = std::get_if<plan::CapacityExperiment>(&e.params);
    plan_capacity_.push_back(capacity ? *capacity : plan::CapacityExperiment{});
  }
  log_->clear();
  log_follows_ = true;  // a new run: its log follows its newest line
  chart_experiment_ = -1;
  on_experiment_started(0, QString(), plan_kinds_.value(0));
  const int count = static_cast<int>(plan.experiments.size());
  if (!controller_.start(std::move(plan), run_dir, error, append, launch_allowed,
                         KeyAllowances(workspace_.dir()).environment()))
    return false;
  setup_stack_->setCurrentWidget(plan_view_);  // what runs, not the form's other values
  set_running(true);
  const QString what = count > 1 ? tr("%1 experiments").arg(count) : last_kind_;
  emit status(append
                  ? tr("Adding %1 to %2 on %3").arg(what, QDir(run_dir).dirName(), lanes.join(", "))
                  : tr("Running %1 on %2").arg(what, lanes.join(", ")));
  return true;
}

void RunPage::on_start_clicked() {
  if (controller_.running()) return;
  QString error;
  if (!start_run(&error)) QMessageBox::warning(this, tr("Cannot start the run"), error);
}

void RunPage::stop_run() {
  if (!controller_.running()) return;
  controller_.stop();
  stop_->setEnabled(false);
  progress_label_->setText(controller_.phase_text());
}

void RunPage::set_running(bool running) {
  stop_->setEnabled(running);
  update_start_buttons();
  form_->setEnabled(!running);
  if (!running && !controller_.run_dir().isEmpty()) return;
  if (running) {
    progress_->setValue(0);
    progress_->setFormat(tr("Starting…"));
  } else {
    progress_->setValue(0);
    progress_->setFormat(tr("Ready"));
    progress_label_->setText(tr("Pick lanes and an experiment, then Start (Ctrl+Return)."));
  }
}

void RunPage::on_updated(const QStringList& changed) {
  charts_->update_from(controller_.data(), {changed.begin(), changed.end()},
                       controller_.elapsed_s());
  const double fraction = controller_.progress_fraction();
  if (fraction >= 0) {
    progress_->setValue(static_cast<int>(fraction * 1000));
    progress_->setFormat(QString("%1%").arg(static_cast<int>(fraction * 100)));
  } else {
    progress_->setFormat(tr("Running…"));
  }
  QString label = controller_.phase_text();
  const QString eta = format_eta(controller_.eta_s());
  if (!eta.isEmpty()) label += " — " + eta;
  progress_label_->setText(label);
  const QString plan_eta = format_eta(controller_.plan_eta_s());
  plan_view_->set_time_left(plan_eta.isEmpty() ? QString() : tr("Plan: about %1").arg(plan_eta));
}

QString RunPage::log_text() const { return log_->toPlainText(); }

void RunPage::append_log(const QString& line) { log_->appendPlainText(line); }

void RunPage::on_message(int level, const QString& text) {
  static const char* const kPrefix[] = {"", "⚠ ", "✖ "};
  append_log(QString::fromUtf8(kPrefix[std::clamp(level, 0, 2)]) + text);
  if (level >= static_cast<int>(run::MessageLevel::Error)) emit status(text);
}

void RunPage::on_finished(const RunOutcome& outcome, const QString& run_dir) {
  plan_view_->set_finished(outcome.interrupted);
  setup_stack_->setCurrentWidget(setup_form_);
  set_running(false);
  // After a throughput run: each lane's knee and, for a doubling sweep, where and why it stopped.
  for (const std::string& line : outcome.sweep_lines) on_message(0, QString::fromStdString(line));
  if (!outcome.summary_damage.empty())
    emit status(QString::fromStdString(outcome.summary_damage.front()));
  for (const std::string& e : outcome.errors) on_message(2, QString::fromStdString(e));
  const QString what = outcome.interrupted ? tr("Run stopped") : tr("Run finished");
  progress_->setFormat(outcome.interrupted ? tr("Stopped") : tr("Done"));
  if (!outcome.interrupted) progress_->setValue(1000);
  progress_label_->setText(tr("%1: %2 requests written to %3")
                               .arg(what)
                               .arg(outcome.requests_written)
                               .arg(QDir(run_dir).dirName()));
  emit status(tr("%1 (%2 requests) — %3").arg(what).arg(outcome.requests_written).arg(run_dir));
  // A run the user stopped is not a failure to report in a dialog (its errors are in the log):
  // a modal here would also hold up closing the window, which waits for this signal.
  if (!outcome.interrupted && !outcome.errors.empty() && outcome.requests_written == 0)
    QMessageBox::warning(this, tr("The run could not complete"),
                         QString::fromStdString(outcome.errors.front()));
  if (outcome.requests_written > 0) set_open_run(run_dir);
  const auto& sections = outcome.summary.experiments;
  const bool reviewable = std::any_of(sections.begin(), sections.end(), [](const auto& e) {
    return e.kind && record::is_reviewable(*e.kind);
  });
  emit run_finished(run_dir, reviewable && outcome.requests_written > 0);
}

}  // namespace lb::ui
