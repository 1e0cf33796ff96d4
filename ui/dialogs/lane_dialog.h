#pragma once
// Adds or edits one lane: endpoint, model, the environment variable holding its API key (never
// the key itself) and serving notes.
#include <QDialog>

#include "plan/plan.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace lb::ui {

class LaneDialog : public QDialog {
  Q_OBJECT
 public:
  // taken_ids: ids other lanes already use (an id must be unique in the workspace).
  LaneDialog(const plan::Lane& lane, QStringList taken_ids, QWidget* parent = nullptr);
  plan::Lane lane() const;

  void accept() override;

 private:
  QString validate() const;

  plan::Lane original_;
  QStringList taken_ids_;
  QLineEdit* id_ = nullptr;
  QLineEdit* url_ = nullptr;
  QLineEdit* model_ = nullptr;
  QLineEdit* key_env_ = nullptr;
  QComboBox* weights_ = nullptr;
  QComboBox* kv_ = nullptr;
  QComboBox* spec_ = nullptr;
  QComboBox* prefix_ = nullptr;
  QLineEdit* engine_ = nullptr;
  QLineEdit* notes_ = nullptr;
  QLabel* error_ = nullptr;
};

}  // namespace lb::ui
