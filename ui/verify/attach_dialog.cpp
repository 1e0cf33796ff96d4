#include "ui/verify/attach_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QLabel>
#include <QPushButton>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/workspace/run_folder_scanner.h"

namespace lb::ui {
namespace {

constexpr int kLanesRole = Qt::UserRole + 1;  // the run's lane ids (QStringList)
constexpr int kMinimumWidthPx = 480;          // room for a run name and the wrapped text

}  // namespace

AttachDialog::AttachDialog(const QString& runs_dir, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Attach Verification to a Run"));
  runs_ = new QComboBox(this);
  runs_->setAccessibleName(tr("Run folder"));
  lanes_ = new QComboBox(this);
  lanes_->setAccessibleName(tr("Lane"));
  problem_ = new QLabel(this);
  problem_->setWordWrap(true);
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons_->button(QDialogButtonBox::Ok)->setText(tr("&Attach"));
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(runs_, &QComboBox::currentIndexChanged, this, &AttachDialog::reload_lanes);
  auto* form = new QFormLayout(this);
  auto* explanation = new QLabel(tr("The verification is kept in the run folder as "
                                    "artifacts/&lt;lane&gt;.verification.json; the run's report "
                                    "then shows the checkpoint's identity for that lane."),
                                 this);
  explanation->setWordWrap(true);  // one line made the dialog about 900 px wide
  form->addRow(explanation);
  form->addRow(tr("&Run:"), runs_);
  form->addRow(tr("&Lane:"), lanes_);
  form->addRow(problem_);
  form->addRow(buttons_);
  setMinimumWidth(kMinimumWidthPx);
  reload_lanes();
  using Scan = std::vector<models::RunFolderInfo>;
  auto* watcher = new QFutureWatcher<Scan>(this);
  connect(watcher, &QFutureWatcher<Scan>::finished, this, [this, watcher] {
    watcher->deleteLater();
    list_runs(watcher->result());
  });
  watcher->setFuture(QtConcurrent::run([runs_dir] { return scan_runs(runs_dir); }));
}

// As the Runs page lists them, newest first; a run whose plan names no lane cannot take one.
void AttachDialog::list_runs(std::vector<models::RunFolderInfo> runs) {
  models::sort_newest_first(runs);
  for (const models::RunFolderInfo& run : runs) {
    if (run.lanes.isEmpty()) continue;
    runs_->addItem(run.name, run.path);
    runs_->setItemData(runs_->count() - 1, run.lanes, kLanesRole);
  }
  listing_ = false;
  reload_lanes();
  emit runs_listed();
}

QString AttachDialog::run_dir() const { return runs_->currentData().toString(); }
QString AttachDialog::lane() const { return lanes_->currentText(); }
int AttachDialog::run_count() const { return runs_->count(); }

QStringList AttachDialog::lanes() const { return runs_->currentData(kLanesRole).toStringList(); }

bool AttachDialog::select_run(const QString& name) {
  const int index = runs_->findText(name);
  if (index < 0) return false;
  runs_->setCurrentIndex(index);
  return true;
}

void AttachDialog::reload_lanes() {
  lanes_->clear();
  lanes_->addItems(lanes());
  problem_->setText(listing_              ? tr("Reading the workspace's runs…")
                    : runs_->count() == 0 ? tr("This workspace has no run yet.")
                                          : QString());
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(lanes_->count() > 0);
}

}  // namespace lb::ui
