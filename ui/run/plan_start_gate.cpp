#include "ui/run/plan_start_gate.h"

#include <QFutureWatcher>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <utility>

#include "core/net/printable_text.h"
#include "core/plan/api_key_source.h"
#include "core/plan/launch_spec.h"
#include "core/plan/sweep_expansion.h"
#include "ui/keyring/secret_store.h"
#include "ui/workspace/key_allowances.h"
#include "ui/workspace/workspace.h"

namespace lb::ui {

PlanStartGate::PlanStartGate(Workspace& workspace, QWidget* dialog_parent, WhyNotNow why_not_now,
                             Start start)
    : QObject(dialog_parent),
      workspace_(workspace),
      dialog_parent_(dialog_parent),
      why_not_now_(std::move(why_not_now)),
      start_(std::move(start)) {}

void PlanStartGate::set_busy(bool busy) {
  if (busy_ == busy) return;
  busy_ = busy;
  emit busy_changed(busy);
}

void PlanStartGate::check(Request request, std::function<plan::PlanParseResult()> read_plan) {
  if (busy_) return refuse(tr("A plan is being checked: wait for it first."));
  set_busy(true);  // one plan at a time: the page's buttons say so while it is at the gate
  auto* watcher = new QFutureWatcher<CheckedPlan>(this);
  connect(watcher, &QFutureWatcher<CheckedPlan>::finished, this, [this, watcher, request] {
    watcher->deleteLater();
    on_checked(request, watcher->result());
  });
  watcher->setFuture(
      QtConcurrent::run([read = std::move(read_plan), workspace = workspace_.id().toStdString()] {
        CheckedPlan checked{read(), {}};
        if (!checked.parsed.ok()) return checked;
        const SecretStore store(workspace);
        for (const plan::Lane& lane : checked.parsed.plan->lanes) {
          if (!plan::keyring_lane_of(lane.api_key_env)) continue;
          std::string problem;
          const bool stored =
              store.lookup({lane.id, plan::keyring_host(lane.base_url)}, &problem).has_value();
          checked.keys.push_back({lane.id, stored, problem});
        }
        return checked;
      }));
}

void PlanStartGate::on_checked(const Request& request, CheckedPlan checked) {
  plan::PlanParseResult& parsed = checked.parsed;
  if (!parsed.ok()) {
    const QString errors = QString::fromStdString(parsed.error_text());
    return fail(request.source.isEmpty()
                    ? errors
                    : tr("The plan %1 cannot run:\n%2").arg(request.source, errors));
  }
  if (const QString why = why_not_now_(); !why.isEmpty()) return fail(why);
  Passing passing{request, std::move(*parsed.plan), false};
  if (request.ask_launches) {
    QString error;
    if (!confirm_launches(passing.plan, &error)) {
      emit status(error);  // the user said no: nothing to warn about
      set_busy(false);
      return emit answered(false, error);
    }
    passing.launch_allowed = passing.plan.launches_servers();
  }
  ask_missing_keys(std::move(passing), checked.keys);
}

bool PlanStartGate::confirm_launches(const plan::Plan& plan, QString* error) {
  if (!plan.launches_servers()) return true;
  // Every command that will run, a sweep's one per value included, each shown as plain text
  // without control characters, so that what the user reads is what starts.
  QStringList commands;
  for (const plan::Lane& lane : plan::expand_sweep(plan).plan.lanes)
    if (lane.launch)
      commands << tr("%1:  %2").arg(
          QString::fromStdString(net::printable_line(lane.id)),
          QString::fromStdString(net::printable_line(plan::display_command(*lane.launch))));
  QMessageBox box(QMessageBox::Warning, tr("Start these programs?"),
                  tr("This plan starts a server program for each of these lanes, exactly as shown "
                     "(no shell), and stops it after the lane's experiments. Run only commands "
                     "you trust."),
                  QMessageBox::Yes | QMessageBox::Cancel, dialog_parent_);
  box.setTextFormat(Qt::PlainText);
  box.setDetailedText(commands.join("\n"));
  box.setInformativeText(commands.join("\n"));
  if (auto* label = box.findChild<QLabel*>("qt_msgbox_informativelabel"))
    label->setTextFormat(Qt::PlainText);  // never rich text, whatever a command holds
  box.setDefaultButton(QMessageBox::Cancel);
  if (box.exec() == QMessageBox::Yes) return true;
  *error = tr("The plan starts programs and that was not allowed: nothing was run.");
  return false;
}

void PlanStartGate::ask_missing_keys(Passing passing, const std::vector<KeyringState>& keys) {
  std::vector<SecretStore::KeyToKeep> typed;
  for (const KeyringState& state : keys) {
    if (state.stored) continue;
    const QString id = QString::fromStdString(state.lane_id);
    if (!state.problem.empty())
      return fail(tr("Lane %1: %2").arg(id, QString::fromStdString(state.problem)));
    const auto& lanes = passing.plan.lanes;
    const auto lane = std::find_if(lanes.begin(), lanes.end(),
                                   [&](const plan::Lane& l) { return l.id == state.lane_id; });
    if (lane == lanes.end()) continue;
    const plan::KeyringItem item{lane->id, plan::keyring_host(lane->base_url)};
    bool ok = false;
    const QString key = QInputDialog::getText(
        dialog_parent_, tr("API key for lane %1").arg(id),
        tr("This workspace keeps no key for lane %1 at %2 (the lane comes from another "
           "workspace, or its host changed). Type its API key; it goes to the OS keyring for "
           "this workspace, lane and host.")
            .arg(id, QString::fromStdString(item.host)),
        QLineEdit::Password, QString(), &ok);
    if (!ok || key.isEmpty()) return fail(tr("Lane %1 has no API key: it was not given.").arg(id));
    typed.push_back({item, key.toStdString()});
  }
  if (typed.empty()) return finish(std::move(passing));
  // The keys go to the keyring in a job: the Secret Service may ask to unlock it first.
  emit status(tr("Keeping the key in the OS keyring…"));
  using Batch = SecretStore::BatchResult;
  auto* watcher = new QFutureWatcher<Batch>(this);
  auto held = std::make_shared<Passing>(std::move(passing));
  std::vector<std::string> lane_ids;
  for (const auto& t : typed) lane_ids.push_back(t.item.lane_id);
  connect(watcher, &QFutureWatcher<Batch>::finished, this, [this, watcher, held, lane_ids] {
    const Batch outcome = watcher->result();
    watcher->deleteLater();
    if (!outcome.result.ok)
      return fail(tr("Lane %1: %2")
                      .arg(QString::fromStdString(lane_ids.at(outcome.failed_at)),
                           QString::fromStdString(outcome.result.error)));
    finish(std::move(*held));
  });
  watcher->setFuture(
      QtConcurrent::run([workspace = workspace_.id().toStdString(), typed = std::move(typed)] {
        return SecretStore(workspace).store_all(typed);
      }));
}

void PlanStartGate::finish(Passing passing) {
  QString error;
  // A lane sends the value of its api_key_env variable only to a host the user allowed it for.
  if (!KeyAllowances(workspace_.dir()).confirm(dialog_parent_, passing.plan, &error))
    return fail(error);
  if (const QString why = why_not_now_(); !why.isEmpty()) return fail(why);
  const Request& r = passing.request;
  const QString label =
      r.run_label.isEmpty() ? QString::fromStdString(passing.plan.name) : r.run_label;
  const bool append = !r.append_to.isEmpty();
  const QString run_dir = append ? r.append_to : workspace_.new_run_dir(label);
  set_busy(false);
  if (!start_(std::move(passing.plan), run_dir, append, passing.launch_allowed, &error))
    return fail(error);
  emit answered(true, QString());
}

void PlanStartGate::fail(const QString& error) {
  set_busy(false);
  refuse(error);
}

void PlanStartGate::refuse(const QString& error) {
  if (!error.isEmpty()) {
    emit status(error.section('\n', 0, 0));
    // Window-modal, not a nested event loop: the page keeps drawing behind it.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot run the plan"), error,
                                QMessageBox::Ok, dialog_parent_);
    box->setObjectName("planProblem");
    box->setTextFormat(Qt::PlainText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
  }
  emit answered(false, error);
}

}  // namespace lb::ui
