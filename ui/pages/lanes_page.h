#pragma once
// Lanes: the workspace's endpoints. Add, edit, duplicate, remove, probe.
#include <QWidget>
#include <memory>
#include <string>
#include <vector>

#include "models/lane_table_model.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace lb::widgets {
class LanePalette;
}

namespace lb::ui {

class Workspace;

class LanesPage : public QWidget {
  Q_OBJECT
 public:
  LanesPage(Workspace& workspace, std::shared_ptr<widgets::LanePalette> palette,
            QWidget* parent = nullptr);
  void reload();  // after the workspace changed
  models::LaneTableModel* model() { return &model_; }

 signals:
  void lanes_changed();
  void status(const QString& text);

 private:
  void remember_key_variable(const plan::Lane& lane);
  void add_lane();
  void edit_lane();
  void duplicate_lane();
  void remove_lane();
  void probe_lane();
  int current_row() const;
  bool save(std::vector<plan::Lane> lanes);
  // Removes these lanes' keys from the keyring in a job; REPORT says what failed, as a status.
  void remove_keys(std::vector<std::string> lane_ids, bool report);
  QStringList ids_except(int row) const;
  void update_buttons();

  Workspace& workspace_;
  std::shared_ptr<widgets::LanePalette> palette_;
  models::LaneTableModel model_;
  QTableView* table_ = nullptr;
  QPushButton* edit_ = nullptr;
  QPushButton* duplicate_ = nullptr;
  QPushButton* remove_ = nullptr;
  QPushButton* probe_ = nullptr;
  QLabel* probe_title_ = nullptr;
  QPlainTextEdit* probe_text_ = nullptr;
};

}  // namespace lb::ui
