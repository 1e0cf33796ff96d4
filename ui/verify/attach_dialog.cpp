#include "ui/verify/attach_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>

#include <algorithm>

#include "report/artifact_attach.h"

namespace lb::ui {

AttachDialog::AttachDialog(const QString& runs_dir, QWidget* parent)
    : QDialog(parent), runs_dir_(runs_dir) {
  setWindowTitle(tr("Attach Verification to a Run"));
  runs_ = new QComboBox(this);
  runs_->setAccessibleName(tr("Run folder"));
  lanes_ = new QComboBox(this);
  lanes_->setAccessibleName(tr("Lane"));
  problem_ = new QLabel(this);
  problem_->setWordWrap(true);
  // Run folder names start with their start time: newest first is reverse name order.
  QStringList names = QDir(runs_dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
  std::reverse(names.begin(), names.end());
  for (const QString& name : names)
    if (QFileInfo::exists(QDir(runs_dir).filePath(name + "/plan.json"))) runs_->addItem(name);
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons_->button(QDialogButtonBox::Ok)->setText(tr("&Attach"));
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(runs_, &QComboBox::currentIndexChanged, this, &AttachDialog::reload_lanes);
  auto* form = new QFormLayout(this);
  form->addRow(new QLabel(tr("The verification is kept in the run folder as "
                             "artifacts/&lt;lane&gt;.verification.json; the run's report then "
                             "shows the checkpoint's identity for that lane."),
                          this));
  form->addRow(tr("&Run:"), runs_);
  form->addRow(tr("&Lane:"), lanes_);
  form->addRow(problem_);
  form->addRow(buttons_);
  reload_lanes();
}

QString AttachDialog::run_dir() const {
  return runs_->count() == 0 ? QString() : QDir(runs_dir_).filePath(runs_->currentText());
}
QString AttachDialog::lane() const { return lanes_->currentText(); }
int AttachDialog::run_count() const { return runs_->count(); }

QStringList AttachDialog::lanes() const {
  QStringList out;
  for (int i = 0; i < lanes_->count(); ++i) out << lanes_->itemText(i);
  return out;
}

bool AttachDialog::select_run(const QString& name) {
  const int index = runs_->findText(name);
  if (index < 0) return false;
  runs_->setCurrentIndex(index);
  return true;
}

void AttachDialog::reload_lanes() {
  lanes_->clear();
  problem_->clear();
  std::vector<std::string> ids;
  std::string error;
  if (runs_->count() == 0) {
    problem_->setText(tr("This workspace has no run yet."));
  } else if (!report::run_lane_ids(run_dir().toStdString(), ids, &error)) {
    problem_->setText(QString::fromStdString(error));
  }
  for (const std::string& id : ids) lanes_->addItem(QString::fromStdString(id));
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(lanes_->count() > 0);
}

}  // namespace lb::ui
