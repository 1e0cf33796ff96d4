#pragma once
// Runs: the workspace's run folders, newest first; open one to review it again.
#include <QWidget>

#include "models/run_history_model.h"

class QLabel;
class QTableView;

namespace lb::ui {

class Workspace;

class RunsPage : public QWidget {
  Q_OBJECT
 public:
  explicit RunsPage(Workspace& workspace, QWidget* parent = nullptr);
  void refresh();
  models::RunHistoryModel* model() { return &model_; }

 signals:
  void open_requested(const QString& run_dir);

 private:
  void open_current();
  Workspace& workspace_;
  models::RunHistoryModel model_;
  QTableView* table_ = nullptr;
  QLabel* empty_ = nullptr;
};

}  // namespace lb::ui
