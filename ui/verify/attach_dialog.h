#pragma once
// Attach to Run: picks a run folder of the workspace (newest first, as the Runs page lists them)
// and one of its lanes, so a checkpoint verification can be kept with that run
// (artifacts/<lane>.verification.json) and its report carries the checkpoint's identity. The
// workspace's runs are scanned off the GUI thread: the dialog opens at once and lists them when
// the scan ends (runs_listed).
#include <QDialog>
#include <vector>

#include "models/run_history_model.h"

class QComboBox;
class QDialogButtonBox;
class QLabel;

namespace lb::ui {

class AttachDialog : public QDialog {
  Q_OBJECT
 public:
  AttachDialog(const QString& runs_dir, QWidget* parent = nullptr);

  QString run_dir() const;  // empty when the workspace has no run
  QString lane() const;
  bool select_run(const QString& name);  // by folder name; false when absent
  int run_count() const;
  QStringList lanes() const;
  bool listing() const { return listing_; }  // the scan has not ended yet

 signals:
  void runs_listed();

 private:
  void list_runs(std::vector<models::RunFolderInfo> runs);
  void reload_lanes();
  bool listing_ = true;

  QComboBox* runs_ = nullptr;
  QComboBox* lanes_ = nullptr;
  QLabel* problem_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
};

}  // namespace lb::ui
