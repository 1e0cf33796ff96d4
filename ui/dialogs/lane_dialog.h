#pragma once
// Adds or edits one lane: endpoint, model, where its API key comes from (none, an environment
// variable, or the OS keyring) and serving notes. A key typed here goes into the OS keyring when
// the dialog is accepted, off the GUI thread (the Secret Service may ask the user to unlock the
// keyring first): the dialog closes once it is kept. The lane itself only ever holds the
// reference "keyring:<lane-id>".
// Its Launch tab edits the lane's launch block (ui/dialogs/launch_editor.h).
#include <QDialog>

#include "core/plan/plan.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;

namespace lb::ui {

class LaunchEditor;

class LaneDialog : public QDialog {
  Q_OBJECT
 public:
  // taken_ids: ids other lanes already use (an id must be unique in the workspace).
  // workspace_id: the workspace a key typed here is kept for (ui/keyring/secret_store.h).
  LaneDialog(const plan::Lane& lane, QStringList taken_ids, QString workspace_id = {},
             QWidget* parent = nullptr);
  plan::Lane lane() const;

  void accept() override;
  void reject() override;  // not while keys are being stored: they would outlive the dialog
  bool storing() const { return storing_; }  // keys are going to the keyring; OK waits for it

  LaunchEditor* launch_editor() const { return launch_; }
  QTabWidget* tabs() const { return tabs_; }
  QString error_text() const;  // the validation message shown, "" when none

 private:
  enum KeySource { NoKey = 0, EnvironmentKey = 1, KeyringKey = 2 };
  QString validate() const;
  void build_key_fields(const plan::Lane& lane);
  void show_key_source(int source);
  std::string key_reference() const;  // what api_key_env holds for the chosen source
  void show_problem(const QString& problem);

  plan::Lane original_;
  QStringList taken_ids_;
  QString workspace_id_;
  QLineEdit* id_ = nullptr;
  QLineEdit* url_ = nullptr;
  QLineEdit* model_ = nullptr;
  QComboBox* key_source_ = nullptr;
  QLineEdit* key_env_ = nullptr;
  QLineEdit* key_secret_ = nullptr;  // the key itself: sent to the keyring, never to the lane
  QLabel* key_env_label_ = nullptr;
  QLabel* key_secret_label_ = nullptr;
  QComboBox* weights_ = nullptr;
  QComboBox* kv_ = nullptr;
  QComboBox* spec_ = nullptr;
  QComboBox* prefix_ = nullptr;
  QLineEdit* engine_ = nullptr;
  QLineEdit* notes_ = nullptr;
  QLabel* error_ = nullptr;
  LaunchEditor* launch_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QWidget* buttons_ = nullptr;
  bool storing_ = false;
};

}  // namespace lb::ui
