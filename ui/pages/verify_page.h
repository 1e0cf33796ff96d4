#pragma once
// Verify: identity and loader surface of a local checkpoint before it is served. Pick the folder
// (a plain checkpoint or a Hugging Face cache repo) and, optionally, a pinned inventory (JSON
// {path: sha256}, a sha256sum list); every file is hashed off the GUI thread with a progress bar
// and Cancel, and mismatched, missing and extra files, refuse-list findings and invalid
// safetensors headers are listed with their severity. Attach to Run keeps a finished
// verification with a run of the workspace, for its report.
#include <QWidget>

#include "models/verify_findings_model.h"
#include "ui/verify/verify_job.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace lb::ui {

class VerifyPage : public QWidget {
  Q_OBJECT
 public:
  explicit VerifyPage(QWidget* parent = nullptr);

  void set_checkpoint_dir(const QString& dir);
  void set_inventory(const QString& file);
  bool start_verify(QString* error);
  void cancel();
  // The workspace's runs folder, for Attach to Run.
  void set_runs_dir(const QString& dir);
  // Keeps the last finished verification as RUN_DIR/artifacts/LANE.verification.json.
  bool attach_to_run(const QString& run_dir, const QString& lane, QString* error);
  bool can_attach() const;

  models::VerifyFindingsModel* model() { return &model_; }
  VerifyJob* job() { return &job_; }
  QString verdict_text() const;
  QTableView* table() const { return table_; }

 signals:
  void status(const QString& text);
  void verified(bool passed);  // after a check finished (not after a cancel)

 private:
  QWidget* build_inputs();
  void on_verify_clicked();
  void on_attach_clicked();
  void on_progress(qint64 bytes_done, qint64 bytes_total, int files_done, int files_total);
  void on_finished(bool cancelled);
  void show_findings();
  void set_running(bool running);

  VerifyJob job_;
  models::VerifyFindingsModel model_;
  QSortFilterProxyModel* proxy_ = nullptr;
  QLineEdit* dir_ = nullptr;
  QLineEdit* inventory_ = nullptr;
  QPushButton* verify_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QPushButton* attach_ = nullptr;
  QString runs_dir_;
  QProgressBar* progress_ = nullptr;
  QLabel* verdict_ = nullptr;
  QCheckBox* show_ok_ = nullptr;
  QTableView* table_ = nullptr;
  bool have_report_ = false;
  bool last_cancelled_ = false;
};

}  // namespace lb::ui
