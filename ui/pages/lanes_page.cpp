#include "ui/pages/lanes_page.h"

#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <set>

#include "core/plan/api_key_source.h"
#include "ui/dialogs/lane_dialog.h"
#include "ui/keyring/secret_store.h"
#include "ui/pages/lane_prober.h"
#include "ui/pages/page_parts.h"
#include "ui/workspace/key_allowances.h"
#include "ui/workspace/workspace.h"
#include "widgets/lane_palette.h"

namespace lb::ui {
namespace {

// The keyring items the lanes refer to: each lane's key ("<lane-id>") and the secret values of
// its launch environment ("<lane-id>/env/<NAME>").
std::set<std::string> keyring_lanes(const std::vector<plan::Lane>& lanes) {
  std::set<std::string> ids;
  for (const auto& lane : lanes) {
    if (auto id = plan::keyring_lane_of(lane.api_key_env)) ids.insert(*id);
    if (!lane.launch) continue;
    for (const auto& [name, value] : lane.launch->env)
      if (auto id = plan::keyring_lane_of(value)) ids.insert(*id);
  }
  return ids;
}

}  // namespace

LanesPage::LanesPage(Workspace& workspace, std::shared_ptr<widgets::LanePalette> palette,
                     QWidget* parent)
    : QWidget(parent), workspace_(workspace), palette_(std::move(palette)) {
  auto* heading =
      make_page_heading(tr("<h2>Lanes</h2><p>Each lane is one endpoint with its serving "
                           "configuration. Runs send the same workload to every lane you "
                           "pick. <tt>sim:</tt> lanes are served by the built-in simulator.</p>"),
                        this);
  table_ = make_row_table(&model_, tr("Lanes"), this);

  auto* add = new QPushButton(tr("&Add…"), this);
  edit_ = new QPushButton(tr("&Edit…"), this);
  duplicate_ = new QPushButton(tr("D&uplicate"), this);
  remove_ = new QPushButton(tr("&Remove"), this);
  probe_ = new QPushButton(tr("&Probe"), this);
  probe_->setToolTip(tr("Ask the server what it is: model, context length, metrics"));
  connect(add, &QPushButton::clicked, this, &LanesPage::add_lane);
  connect(edit_, &QPushButton::clicked, this, &LanesPage::edit_lane);
  connect(duplicate_, &QPushButton::clicked, this, &LanesPage::duplicate_lane);
  connect(remove_, &QPushButton::clicked, this, &LanesPage::remove_lane);
  connect(probe_, &QPushButton::clicked, this, &LanesPage::probe_lane);
  connect(table_, &QTableView::doubleClicked, this, &LanesPage::edit_lane);
  auto* del = new QShortcut(QKeySequence::Delete, table_);
  del->setContext(Qt::WidgetShortcut);
  connect(del, &QShortcut::activated, this, &LanesPage::remove_lane);
  auto* enter = new QShortcut(QKeySequence(Qt::Key_Return), table_);
  enter->setContext(Qt::WidgetShortcut);
  connect(enter, &QShortcut::activated, this, &LanesPage::edit_lane);

  probe_title_ = new QLabel(tr("<b>Probe</b>"), this);
  probe_text_ = new QPlainTextEdit(this);
  probe_text_->setReadOnly(true);
  probe_text_->setPlaceholderText(tr("Select a lane and press Probe."));
  probe_text_->setMaximumHeight(150);

  auto* buttons = new QHBoxLayout;
  for (QPushButton* b : {add, edit_, duplicate_, remove_}) buttons->addWidget(b);
  buttons->addStretch();
  buttons->addWidget(probe_);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(heading);
  layout->addLayout(buttons);
  layout->addWidget(table_, 1);
  layout->addWidget(probe_title_);
  layout->addWidget(probe_text_);
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &LanesPage::update_buttons);
  reload();
}

void LanesPage::reload() {
  QStringList ids;
  for (const plan::Lane& lane : workspace_.lanes()) ids << QString::fromStdString(lane.id);
  palette_->assign(ids);
  QHash<QString, QColor> colors;
  for (const QString& id : ids) colors.insert(id, palette_->colorFor(id));
  model_.set_lanes(workspace_.lanes());
  model_.set_lane_colors(colors);
  table_->resizeColumnsToContents();
  if (model_.rowCount() > 0) table_->selectRow(0);
  update_buttons();
}

int LanesPage::current_row() const {
  const QModelIndexList rows = table_->selectionModel()->selectedRows();
  return rows.isEmpty() ? -1 : rows.front().row();
}

void LanesPage::update_buttons() {
  const bool selected = current_row() >= 0;
  for (QPushButton* b : {edit_, duplicate_, remove_, probe_}) b->setEnabled(selected);
}

QStringList LanesPage::ids_except(int row) const {
  QStringList ids;
  for (int i = 0; i < model_.rowCount(); ++i)
    if (i != row) ids << QString::fromStdString(model_.lane_at(i)->id);
  return ids;
}

bool LanesPage::save(std::vector<plan::Lane> lanes) {
  QString error;
  const std::set<std::string> keys_before = keyring_lanes(workspace_.lanes());
  const std::set<std::string> keys_wanted = keyring_lanes(lanes);
  if (!workspace_.set_lanes(std::move(lanes), &error)) {
    // The lane dialog already put a new lane's key into the keyring; with the workspace that
    // would refer to it not written, the key leaves again rather than stay behind unreferenced.
    std::vector<std::string> added;
    for (const std::string& lane_id : keys_wanted)
      if (!keys_before.count(lane_id)) added.push_back(lane_id);
    remove_keys(std::move(added), false);
    QMessageBox::critical(this, tr("Could not save lanes"), error);
    return false;
  }
  // A key no lane refers to any more (lane removed, or its key source changed) leaves the
  // keyring too, so removing a lane leaves no secret behind.
  const std::set<std::string> keys_after = keyring_lanes(workspace_.lanes());
  std::vector<std::string> dropped;
  for (const std::string& lane_id : keys_before)
    if (!keys_after.count(lane_id)) dropped.push_back(lane_id);
  remove_keys(std::move(dropped), true);
  reload();
  emit lanes_changed();
  return true;
}

void LanesPage::remove_keys(std::vector<std::string> lane_ids, bool report) {
  if (lane_ids.empty()) return;
  using Errors = std::vector<std::string>;
  auto* job = new QFutureWatcher<Errors>(this);
  connect(job, &QFutureWatcher<Errors>::finished, this, [this, job, report] {
    if (report)
      for (const std::string& error : job->result()) emit status(QString::fromStdString(error));
    job->deleteLater();
  });
  // Off the GUI thread: a Secret Service may be slow to answer, or ask to unlock the keyring.
  job->setFuture(QtConcurrent::run([workspace = workspace_.id().toStdString(), lane_ids] {
    Errors errors;
    const SecretStore store(workspace);
    for (const std::string& id : lane_ids)
      if (const auto removed = store.remove(id); !removed.ok) errors.push_back(removed.error);
    return errors;
  }));
}

// The user typed the lane's key variable and its server in the dialog: that is their allowance
// to send one to the other, so the Run page does not ask again.
void LanesPage::remember_key_variable(const plan::Lane& lane) {
  if (lane.api_key_env.empty() || plan::keyring_lane_of(lane.api_key_env)) return;
  KeyAllowances(workspace_.dir()).allow(lane.api_key_env, plan::keyring_host(lane.base_url));
}

void LanesPage::add_lane() {
  plan::Lane lane;
  lane.base_url = "http://127.0.0.1:8000/v1";
  LaneDialog dialog(lane, ids_except(-1), workspace_.id(), this);
  if (dialog.exec() != QDialog::Accepted) return;
  remember_key_variable(dialog.lane());
  std::vector<plan::Lane> lanes = workspace_.lanes();
  lanes.push_back(dialog.lane());
  if (save(std::move(lanes))) table_->selectRow(model_.rowCount() - 1);
}

void LanesPage::edit_lane() {
  const int row = current_row();
  if (row < 0) return;
  LaneDialog dialog(*model_.lane_at(row), ids_except(row), workspace_.id(), this);
  if (dialog.exec() != QDialog::Accepted) return;
  remember_key_variable(dialog.lane());
  std::vector<plan::Lane> lanes = workspace_.lanes();
  lanes[static_cast<size_t>(row)] = dialog.lane();
  if (save(std::move(lanes))) table_->selectRow(row);
}

void LanesPage::duplicate_lane() {
  const int row = current_row();
  if (row < 0) return;
  plan::Lane copy = *model_.lane_at(row);
  const QStringList taken = ids_except(-1);
  QString id = QString::fromStdString(copy.id) + "-copy";
  for (int n = 2; taken.contains(id); ++n)
    id = QString::fromStdString(copy.id) + "-copy" + QString::number(n);
  copy.id = id.toStdString();
  std::vector<plan::Lane> lanes = workspace_.lanes();
  lanes.insert(lanes.begin() + row + 1, copy);
  if (save(std::move(lanes))) table_->selectRow(row + 1);
}

void LanesPage::remove_lane() {
  const int row = current_row();
  if (row < 0) return;
  const QString id = QString::fromStdString(model_.lane_at(row)->id);
  if (QMessageBox::question(
          this, tr("Remove lane"),
          tr("Remove lane \"%1\" from this workspace? Past runs keep it.").arg(id)) !=
      QMessageBox::Yes)
    return;
  std::vector<plan::Lane> lanes = workspace_.lanes();
  lanes.erase(lanes.begin() + row);
  save(std::move(lanes));
}

void LanesPage::probe_lane() {
  const int row = current_row();
  if (row < 0) return;
  const plan::Lane lane = *model_.lane_at(row);
  plan::Plan probed;
  probed.lanes = {lane};
  KeyAllowances allowances(workspace_.dir());
  if (QString error; !allowances.confirm(this, probed, &error)) {
    probe_text_->setPlainText(error);
    return;
  }
  probe_->setEnabled(false);
  probe_title_->setText(tr("<b>Probe of %1</b>").arg(QString::fromStdString(lane.id)));
  probe_text_->setPlainText(tr("Probing %1…").arg(QString::fromStdString(lane.base_url)));
  auto* watcher = new QFutureWatcher<ProbeOutcome>(this);
  connect(watcher, &QFutureWatcher<ProbeOutcome>::finished, this, [this, watcher, lane] {
    watcher->deleteLater();
    const ProbeOutcome outcome = watcher->result();
    probe_text_->setPlainText(outcome.text);
    probe_text_->setStyleSheet(outcome.ok ? QString() : QString("color: #b00020"));
    update_buttons();
    emit status(outcome.ok
                    ? tr("Lane %1 answered: %2").arg(QString::fromStdString(lane.id), outcome.model)
                    : tr("Lane %1 cannot be used").arg(QString::fromStdString(lane.id)));
  });
  watcher->setFuture(QtConcurrent::run(&probe_pool(), [lane, env = allowances.environment()] {
    return probe_lane_blocking(lane, env);
  }));
}

}  // namespace lb::ui
