#pragma once
// Picks an experiment kind and its main parameters, and writes them as the plan file's
// experiment object. Kinds that this build of core cannot run are listed but disabled, with the
// reason, so the page never offers what it cannot do.
#include <QWidget>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/record/experiment_kind.h"

class QCheckBox;
class QComboBox;
class QListWidget;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace lb::ui {

class CapacityForm;
class DeterminismForm;
class SessionsForm;
class TraceForm;

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
  // The prompt-set pickers (regression, sampled regression): built-in sets and the workspace's
  // own (ref, label); the ref is the current kind's.
  void set_prompt_sets(const std::vector<std::pair<QString, QString>>& sets);
  QString prompt_set_ref() const;
  void set_prompt_set_ref(const QString& ref);
  // Context sweep sizes and output, e.g. for quick runs ("512, 1024").
  void set_context_sizes(const QString& sizes, int output_tokens, int repeat = 1);
  // Throughput: a concurrency list ("1, 4") or doubling from 1 up to max_concurrency.
  void set_throughput(const QString& concurrency, int requests, int output_tokens);
  void set_throughput_doubling(int max_concurrency, double min_gain_percent);
  // Throughput: the lanes one after another or side by side, and each level's time limit in
  // seconds (0: none, the requests alone bound it).
  void set_throughput_lanes(bool side_by_side, int time_limit_s = 0);
  // The traffic kinds' own forms (trace replay, sessions, SLO capacity).
  TraceForm* trace_form() const { return trace_; }
  SessionsForm* sessions_form() const { return sessions_; }
  CapacityForm* capacity_form() const { return capacity_; }
  // What the plan parser says of the current settings, one problem a line ("" = none); shown
  // under the traffic kinds' forms as they are edited.
  QString problems() const;

 signals:
  void kind_changed(const QString& kind);

 private:
  QWidget* regression_form();
  QWidget* throughput_form();
  QWidget* context_form();
  QWidget* prefix_form();
  QWidget* speculative_form();
  QWidget* gates_form();
  QWidget* sampled_form();
  QComboBox* prompt_combo() const;  // the current kind's prompt-set picker
  std::optional<record::ExperimentKind> typed_kind() const;
  // Each kind's settings into J; false with ERROR set when one cannot be read.
  bool put_throughput(nlohmann::json& j, QString* error) const;
  bool put_context_sweep(nlohmann::json& j, QString* error) const;
  bool put_speculative(nlohmann::json& j, QString* error) const;
  bool put_gates(nlohmann::json& j, QString* error) const;
  void add_throughput_fields(QFormLayout* form, QWidget* page);
  void check_experiment();

  QComboBox* kind_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QLabel* unavailable_ = nullptr;
  QLabel* problems_ = nullptr;
  TraceForm* trace_ = nullptr;
  SessionsForm* sessions_ = nullptr;
  CapacityForm* capacity_ = nullptr;
  DeterminismForm* determinism_ = nullptr;
  // regression
  QComboBox* prompts_ = nullptr;
  QSpinBox* reg_max_tokens_ = nullptr;
  QDoubleSpinBox* threshold_ = nullptr;
  // throughput
  QComboBox* tp_mode_ = nullptr;
  QLineEdit* tp_concurrency_ = nullptr;
  QSpinBox* tp_doubling_max_ = nullptr;
  QDoubleSpinBox* tp_min_gain_ = nullptr;
  QSpinBox* tp_requests_ = nullptr;
  QSpinBox* tp_input_ = nullptr;
  QSpinBox* tp_output_ = nullptr;
  QComboBox* tp_lanes_ = nullptr;
  QSpinBox* tp_time_limit_ = nullptr;
  // context sweep
  QLineEdit* ctx_sizes_ = nullptr;
  QSpinBox* ctx_output_ = nullptr;
  QCheckBox* ctx_needle_ = nullptr;
  QDoubleSpinBox* ctx_depth_ = nullptr;
  QSpinBox* ctx_repeat_ = nullptr;
  // prefix cache
  QSpinBox* pc_burst_ = nullptr;
  QSpinBox* pc_prefix_ = nullptr;
  QSpinBox* pc_output_ = nullptr;
  QCheckBox* pc_control_ = nullptr;
  // speculative
  QLineEdit* sp_concurrency_ = nullptr;
  QSpinBox* sp_requests_ = nullptr;
  QSpinBox* sp_output_ = nullptr;
  // sampled regression
  QComboBox* sm_prompts_ = nullptr;
  QSpinBox* sm_samples_ = nullptr;
  QDoubleSpinBox* sm_temperature_ = nullptr;
  QDoubleSpinBox* sm_top_p_ = nullptr;
  QSpinBox* sm_seed_ = nullptr;
  QSpinBox* sm_max_tokens_ = nullptr;
  // gates
  QListWidget* gate_checks_ = nullptr;
  QSpinBox* gate_repeat_ = nullptr;
};

// "1, 5, 32" -> [1, 5, 32]; false when an item is not a positive integer.
bool parse_int_list(const QString& text, std::vector<int64_t>* out);

}  // namespace lb::ui
