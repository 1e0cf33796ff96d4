#pragma once
// Picks an experiment kind and its main parameters, and writes them as the plan file's
// experiment object. Kinds that this build of core cannot run are listed but disabled, with the
// reason, so the page never offers what it cannot do.
#include <QWidget>
#include <nlohmann/json.hpp>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace lb::ui {

class ExperimentForm : public QWidget {
  Q_OBJECT
 public:
  explicit ExperimentForm(QWidget* parent = nullptr);

  QString kind() const;
  bool kind_available(const QString& kind) const;
  // The experiment object for the plan file, or an error naming the field.
  nlohmann::json experiment_json(QString* error) const;
  void set_kind(const QString& kind);
  // Small parameters for quick runs (screenshots, tests): fewer requests, shorter outputs.
  void use_quick_defaults();

 private:
  QWidget* regression_form();
  QWidget* throughput_form();
  QWidget* context_form();
  QWidget* prefix_form();
  QWidget* speculative_form();

  QComboBox* kind_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QLabel* unavailable_ = nullptr;
  // regression
  QComboBox* prompts_ = nullptr;
  QSpinBox* reg_max_tokens_ = nullptr;
  QDoubleSpinBox* threshold_ = nullptr;
  // throughput
  QLineEdit* tp_concurrency_ = nullptr;
  QSpinBox* tp_requests_ = nullptr;
  QSpinBox* tp_input_ = nullptr;
  QSpinBox* tp_output_ = nullptr;
  // context sweep
  QLineEdit* ctx_sizes_ = nullptr;
  QSpinBox* ctx_output_ = nullptr;
  // prefix cache
  QSpinBox* pc_burst_ = nullptr;
  QSpinBox* pc_prefix_ = nullptr;
  // speculative
  QLineEdit* sp_concurrency_ = nullptr;
  QSpinBox* sp_requests_ = nullptr;
  QSpinBox* sp_output_ = nullptr;
};

// "1, 5, 32" -> [1, 5, 32]; false when an item is not a positive integer.
bool parse_int_list(const QString& text, std::vector<int64_t>* out);

}  // namespace lb::ui
