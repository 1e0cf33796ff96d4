#include "ui/pages/verify_page.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "core/artifacts/verification.h"
#include "core/report/artifact_attach.h"
#include "models/item_roles.h"
#include "ui/pages/page_parts.h"
#include "ui/verify/attach_dialog.h"
#include "ui/verify/verify_findings.h"

namespace lb::ui {
namespace {

QString mib(qint64 bytes) {
  return QString::number(static_cast<double>(bytes) / (1 << 20), 'f', 1);
}

}  // namespace

VerifyPage::VerifyPage(QWidget* parent) : QWidget(parent) {
  auto* heading = make_page_heading(
      tr("<h2>Verify a checkpoint</h2><p>Identity, then loader surface: every file's SHA-256 "
         "against a pinned inventory (or a Hugging Face cache's own blob names), a refuse-list "
         "scan for pickles, code and native libraries, and every safetensors header checked "
         "without reading tensor data.</p>"),
      this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(&model_);
  proxy_->setSortRole(models::SortRole);
  table_ = make_row_table(proxy_, tr("Verification findings"), this);
  table_->setSortingEnabled(true);
  table_->setWordWrap(false);
  verdict_ = new QLabel(tr("Pick a checkpoint folder, then Verify (Ctrl+Return)."), this);
  verdict_->setWordWrap(true);
  verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  show_ok_ = new QCheckBox(tr("Show &verified files too"), this);
  connect(show_ok_, &QCheckBox::toggled, this, &VerifyPage::show_findings);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->addWidget(heading);
  layout->addWidget(build_inputs());
  layout->addWidget(verdict_);
  layout->addWidget(show_ok_);
  layout->addWidget(table_, 1);
  connect(&job_, &VerifyJob::progress, this, &VerifyPage::on_progress);
  connect(&job_, &VerifyJob::finished, this, &VerifyPage::on_finished);
  set_running(false);
}

QWidget* VerifyPage::build_inputs() {
  auto* box = new QWidget(this);
  dir_ = new QLineEdit(box);
  dir_->setPlaceholderText(
      tr("Checkpoint folder, or a Hugging Face cache repo (models--org--name)"));
  dir_->setAccessibleName(tr("Checkpoint folder"));
  inventory_ = new QLineEdit(box);
  inventory_->setPlaceholderText(
      tr("Optional: JSON {path: sha256} or a sha256sum list; empty for a Hugging Face cache"));
  inventory_->setAccessibleName(tr("Inventory file"));
  auto* browse_dir = new QPushButton(tr("&Browse…"), box);
  auto* browse_inventory = new QPushButton(tr("Br&owse…"), box);
  connect(browse_dir, &QPushButton::clicked, this, [this] {
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Checkpoint folder"), dir_->text());
    if (!dir.isEmpty()) dir_->setText(dir);
  });
  connect(browse_inventory, &QPushButton::clicked, this, [this] {
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Inventory"), inventory_->text(),
        tr("Inventories (*.json *.sha256 *.txt SHA256SUMS*);;All files (*)"));
    if (!file.isEmpty()) inventory_->setText(file);
  });
  verify_ = new QPushButton(tr("&Verify"), box);
  verify_->setToolTip(tr("Hash and scan every file (Ctrl+Return)"));
  cancel_ = new QPushButton(tr("&Cancel"), box);
  cancel_->setToolTip(tr("Stop hashing (Esc)"));
  connect(verify_, &QPushButton::clicked, this, &VerifyPage::on_verify_clicked);
  connect(cancel_, &QPushButton::clicked, this, &VerifyPage::cancel);
  attach_ = new QPushButton(tr("Attach to &Run…"), box);
  attach_->setToolTip(
      tr("Keep this verification with a run of the workspace, so its report shows the "
         "checkpoint's identity for a lane"));
  connect(attach_, &QPushButton::clicked, this, &VerifyPage::on_attach_clicked);
  auto* start_key = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
  start_key->setContext(Qt::WidgetWithChildrenShortcut);
  connect(start_key, &QShortcut::activated, this, &VerifyPage::on_verify_clicked);
  auto* cancel_key = new QShortcut(QKeySequence(Qt::Key_Escape), this);
  cancel_key->setContext(Qt::WidgetWithChildrenShortcut);
  connect(cancel_key, &QShortcut::activated, this, &VerifyPage::cancel);
  progress_ = new QProgressBar(box);
  progress_->setRange(0, 1000);
  auto* dir_row = new QHBoxLayout;
  dir_row->addWidget(dir_, 1);
  dir_row->addWidget(browse_dir);
  auto* inventory_row = new QHBoxLayout;
  inventory_row->addWidget(inventory_, 1);
  inventory_row->addWidget(browse_inventory);
  auto* run_row = new QHBoxLayout;
  run_row->addWidget(verify_);
  run_row->addWidget(cancel_);
  run_row->addWidget(progress_, 1);
  run_row->addWidget(attach_);
  auto* form = new QFormLayout(box);
  form->setContentsMargins(0, 0, 0, 0);
  form->addRow(tr("&Folder:"), dir_row);
  form->addRow(tr("&Inventory:"), inventory_row);
  form->addRow(run_row);
  static_cast<QLabel*>(form->labelForField(dir_row))->setBuddy(dir_);
  static_cast<QLabel*>(form->labelForField(inventory_row))->setBuddy(inventory_);
  setTabOrder(dir_, browse_dir);
  setTabOrder(browse_dir, inventory_);
  setTabOrder(inventory_, browse_inventory);
  setTabOrder(browse_inventory, verify_);
  setTabOrder(verify_, cancel_);
  setTabOrder(cancel_, attach_);
  return box;
}

void VerifyPage::set_checkpoint_dir(const QString& dir) { dir_->setText(dir); }
void VerifyPage::set_inventory(const QString& file) { inventory_->setText(file); }

void VerifyPage::set_runs_dir(const QString& dir) {
  runs_dir_ = dir;
  set_running(job_.running());
}

bool VerifyPage::can_attach() const {
  return have_report_ && !job_.running() && !last_cancelled_ && job_.report().input_ok() &&
         !runs_dir_.isEmpty();
}

bool VerifyPage::attach_to_run(const QString& run_dir, const QString& lane, QString* error) {
  if (!can_attach()) {
    *error = tr("Verify a checkpoint to the end first.");
    return false;
  }
  std::string path, why;
  if (!report::attach_verification(run_dir.toStdString(), lane.toStdString(),
                                   artifacts::verify_report_json(job_.report()), &path, &why)) {
    *error = QString::fromStdString(why);
    return false;
  }
  emit status(tr("Verification attached to %1 for lane %2 (%3)")
                  .arg(QDir(run_dir).dirName(), lane, QString::fromStdString(path)));
  return true;
}

void VerifyPage::on_attach_clicked() {
  if (!can_attach()) return;
  AttachDialog dialog(runs_dir_, this);
  if (dialog.exec() != QDialog::Accepted) return;
  QString error;
  if (!attach_to_run(dialog.run_dir(), dialog.lane(), &error))
    QMessageBox::warning(this, tr("Cannot attach"), error);
}

QString VerifyPage::verdict_text() const { return verdict_->text(); }

bool VerifyPage::start_verify(QString* error) {
  const QString dir = dir_->text().trimmed();
  if (dir.isEmpty()) {
    *error = tr("Pick the checkpoint folder to verify.");
    return false;
  }
  if (!job_.start(dir, inventory_->text().trimmed(), error)) return false;
  set_running(true);
  verdict_->setText(tr("Listing, scanning and hashing %1 …").arg(dir));
  emit status(tr("Verifying %1").arg(dir));
  return true;
}

void VerifyPage::on_verify_clicked() {
  if (job_.running()) return;
  QString error;
  if (!start_verify(&error)) QMessageBox::warning(this, tr("Cannot verify"), error);
}

void VerifyPage::cancel() {
  if (!job_.running()) return;
  job_.cancel();
  cancel_->setEnabled(false);
  verdict_->setText(tr("Cancelling…"));
}

void VerifyPage::on_progress(qint64 bytes_done, qint64 bytes_total, int files_done,
                             int files_total) {
  if (bytes_total <= 0) {
    progress_->setRange(0, 0);  // listing and scanning: size not known yet
    return;
  }
  progress_->setRange(0, 1000);
  progress_->setValue(static_cast<int>(1000.0 * static_cast<double>(bytes_done) /
                                       static_cast<double>(bytes_total)));
  progress_->setFormat(tr("%1 of %2 files, %3 of %4 MiB")
                           .arg(files_done)
                           .arg(files_total)
                           .arg(mib(bytes_done), mib(bytes_total)));
}

void VerifyPage::on_finished(bool cancelled) {
  have_report_ = true;
  last_cancelled_ = cancelled;
  set_running(false);
  const artifacts::VerifyReport& report = job_.report();
  show_findings();
  progress_->setRange(0, 1000);
  progress_->setValue(cancelled ? progress_->value() : 1000);
  progress_->setFormat(cancelled ? tr("Cancelled")
                                 : tr("Done in %1 s").arg(report.hash_seconds, 0, 'f', 1));
  const QString text = cancelled ? tr("Cancelled: the files hashed so far are listed; run Verify "
                                      "again for a verdict.")
                                 : verify_verdict_text(report);
  const bool passed = !cancelled && report.passed();
  verdict_->setText(text);
  verdict_->setStyleSheet(cancelled ? QString()
                          : passed  ? "QLabel { color: #1e7b34; font-weight: bold; }"
                                    : "QLabel { color: #b01c1c; font-weight: bold; }");
  emit status(text);
  if (!cancelled) emit verified(passed);
}

void VerifyPage::show_findings() {
  if (!have_report_) return;
  model_.set_findings(verify_findings(job_.report(), show_ok_->isChecked()));
  table_->resizeColumnsToContents();
  table_->horizontalHeader()->setStretchLastSection(true);
}

void VerifyPage::set_running(bool running) {
  verify_->setEnabled(!running);
  cancel_->setEnabled(running);
  attach_->setEnabled(!running && can_attach());
  dir_->setReadOnly(running);
  inventory_->setReadOnly(running);
  if (running) {
    progress_->setRange(0, 0);
    verdict_->setStyleSheet(QString());
  } else if (!have_report_) {
    progress_->setValue(0);
    progress_->setFormat(tr("Ready"));
  }
}

}  // namespace lb::ui
