// RunPage: starting, stopping and following a run.
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableView>

#include "report/sweep_summary.h"
#include "ui/pages/run_page.h"
#include "ui/run/experiment_form.h"
#include "ui/run/live_charts.h"
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

bool RunPage::start_run(QString* error) {
  const QStringList chosen = checked_lanes();
  if (chosen.isEmpty()) {
    *error = tr("Pick at least one lane to run.");
    return false;
  }
  if (!form_->kind_available(form_->kind())) {
    *error = tr("The experiment \"%1\" is not available in this build.").arg(form_->kind());
    return false;
  }
  QString form_error;
  const nlohmann::json experiment = form_->experiment_json(&form_error);
  if (experiment.is_null()) {
    *error = form_error;
    return false;
  }
  nlohmann::json lanes = nlohmann::json::array();
  for (const plan::Lane& lane : workspace_.lanes())
    if (chosen.contains(QString::fromStdString(lane.id))) lanes.push_back(lane_to_json(lane));
  const std::string name = workspace_.name().toStdString() + " " + form_->kind().toStdString();
  const nlohmann::json plan_json = {
      {"name", name}, {"lanes", lanes}, {"experiments", {experiment}}};
  plan::PlanParseResult parsed = plan::parse_plan(plan_json.dump(), "run settings");
  if (!parsed.ok()) {
    *error = QString::fromStdString(parsed.error_text());
    return false;
  }
  charts_->clear();
  log_->clear();
  last_kind_ = form_->kind();
  show_kind(last_kind_);
  if (last_kind_ == "gates") {
    std::vector<std::string> checks;
    for (const plan::Experiment& e : parsed.plan->experiments)
      if (const auto* g = std::get_if<plan::GatesExperiment>(&e.params)) checks = g->checks;
    gate_scores_.reset(chosen, checks);
    charts_->set_gate_scores(gate_scores_);
  }
  if (!controller_.start(std::move(*parsed.plan), workspace_.new_run_dir(form_->kind()), error))
    return false;
  set_running(true);
  emit status(tr("Running %1 on %2").arg(form_->kind(), chosen.join(", ")));
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
  start_->setEnabled(!running);
  stop_->setEnabled(running);
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
}

QString RunPage::log_text() const { return log_->toPlainText(); }

void RunPage::on_message(int level, const QString& text) {
  static const char* const kPrefix[] = {"", "⚠ ", "✖ "};
  log_->appendPlainText(QString::fromUtf8(kPrefix[std::clamp(level, 0, 2)]) + text);
  if (last_kind_ == "gates" && gate_scores_.apply_message(text))
    charts_->set_gate_scores(gate_scores_);
  if (level >= static_cast<int>(run::MessageLevel::Error)) emit status(text);
}

void RunPage::on_finished(const RunOutcome& outcome, const QString& run_dir) {
  set_running(false);
  if (last_kind_ == "gates") load_gate_summary(run_dir);
  if (last_kind_ == "throughput") report_sweeps(run_dir);
  for (const std::string& e : outcome.errors) on_message(2, QString::fromStdString(e));
  const QString what = outcome.interrupted ? tr("Run stopped") : tr("Run finished");
  progress_->setFormat(outcome.interrupted ? tr("Stopped") : tr("Done"));
  if (!outcome.interrupted) progress_->setValue(1000);
  progress_label_->setText(tr("%1: %2 requests written to %3")
                               .arg(what)
                               .arg(outcome.requests_written)
                               .arg(QDir(run_dir).dirName()));
  emit status(tr("%1 (%2 requests) — %3").arg(what).arg(outcome.requests_written).arg(run_dir));
  if (!outcome.errors.empty() && outcome.requests_written == 0)
    QMessageBox::warning(this, tr("The run could not complete"),
                         QString::fromStdString(outcome.errors.front()));
  emit run_finished(run_dir, last_kind_ == "regression" && outcome.requests_written > 0);
}

namespace {

// The run's summary.json; discarded when a stopped run has none or it cannot be read.
nlohmann::json read_summary(const QString& run_dir) {
  QFile file(QDir(run_dir).filePath("summary.json"));
  if (!file.open(QIODevice::ReadOnly)) return nlohmann::json::value_t::discarded;
  const QByteArray bytes = file.readAll();
  return nlohmann::json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr,
                               /*allow_exceptions=*/false);
}

}  // namespace

void RunPage::load_gate_summary(const QString& run_dir) {
  const auto summary = read_summary(run_dir);
  if (summary.is_discarded()) return;  // keep the live scores
  gate_scores_.apply_summary(summary);
  charts_->set_gate_scores(gate_scores_);
}

void RunPage::report_sweeps(const QString& run_dir) {
  const auto summary = read_summary(run_dir);
  if (summary.is_discarded()) return;
  for (const report::SweepSummary& sweep : report::sweep_summaries(summary, {}))
    on_message(0, tr("Lane %1, concurrency sweep: %2")
                      .arg(QString::fromStdString(sweep.lane),
                           QString::fromStdString(report::describe_sweep(sweep))));
}

}  // namespace lb::ui
