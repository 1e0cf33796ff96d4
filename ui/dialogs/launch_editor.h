#pragma once
// The lane dialog's editor of a managed lane's launch block (docs/plan-file.md, "Managed
// lanes"): the server command as an argument list, one argument per row (it runs without a
// shell), env variables with a "secret" mark, the ready URL and its timeout, and the stop signal
// and grace period. A secret's value goes to the OS keyring when the dialog is accepted; the lane
// only ever holds its reference "keyring:<lane-id>/env/<NAME>". Validation is the plan parser's.
#include <QGroupBox>
#include <optional>

#include "core/plan/plan.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QListWidget;
class QTableWidget;

namespace lb::ui {

class LaunchEditor : public QGroupBox {
  Q_OBJECT
 public:
  LaunchEditor(const plan::Lane& lane, QWidget* parent = nullptr);

  // The launch block for a lane with this id (secret values as keyring references), or nullopt
  // when the lane launches nothing.
  std::optional<plan::LaunchSpec> launch(const std::string& lane_id) const;
  // The plan parser's first complaint about the block on a lane with this id and base_url, or ""
  // (also a secret with no value typed and none stored yet).
  QString validate(const plan::Lane& lane) const;
  // Secret values typed in this dialog, by variable name (to store in the keyring on accept).
  std::map<std::string, std::string> typed_secrets() const;

  // For tests and the screenshot tour.
  QListWidget* arguments() const { return args_; }
  QTableWidget* env_table() const { return env_; }
  void add_env_row(const QString& name, const QString& value, bool secret);
  QLineEdit* ready_url() const { return ready_url_; }
  QDoubleSpinBox* ready_timeout() const { return timeout_; }
  QComboBox* stop_signal() const { return signal_; }
  QDoubleSpinBox* stop_grace() const { return grace_; }
  QCheckBox* keep_log() const { return log_; }
  void set_arguments(const QStringList& args);

 private:
  QWidget* build_command();
  QWidget* build_env();
  void move_argument(int by);
  bool row_is_secret(int row) const;

  std::optional<plan::LaunchSpec> original_;
  QListWidget* args_ = nullptr;
  QTableWidget* env_ = nullptr;
  QLineEdit* ready_url_ = nullptr;
  QDoubleSpinBox* timeout_ = nullptr;
  QComboBox* signal_ = nullptr;
  QDoubleSpinBox* grace_ = nullptr;
  QCheckBox* log_ = nullptr;
};

}  // namespace lb::ui
