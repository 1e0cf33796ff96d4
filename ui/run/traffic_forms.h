#pragma once
// The Run page's forms of the traffic kinds: trace replay (a trace file, its format and cuts),
// multi-turn sessions (synthetic or from a ShareGPT file) and SLO capacity (the SLOs, the load
// the search moves and its bounds). Each writes the plan file's experiment object with only the
// keys it sets, so the plan parser's defaults and messages apply (docs/traces.md,
// docs/sessions.md, docs/capacity.md). Every field says "changed" so the page can check the
// experiment as it is edited.
#include <QWidget>
#include <nlohmann/json.hpp>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace lb::ui {

// A file path with a Browse… button (Alt+B) that opens a file dialog for FILTER.
class PathField : public QWidget {
  Q_OBJECT
 public:
  PathField(const QString& placeholder, const QString& filter, QWidget* parent = nullptr);
  QString path() const;
  void set_path(const QString& path);
  QLineEdit* edit() const { return edit_; }
  QPushButton* browse_button() const { return browse_; }

 signals:
  void changed();

 private:
  QLineEdit* edit_ = nullptr;
  QPushButton* browse_ = nullptr;
  QString filter_;
};

class TraceForm : public QWidget {
  Q_OBJECT
 public:
  explicit TraceForm(QWidget* parent = nullptr);
  // The experiment object, or null with *error naming the field.
  nlohmann::json experiment_json(QString* error) const;
  void set_trace(const QString& path, double speedup, int max_requests);
  PathField* path_field() const { return path_; }
  QComboBox* format_box() const { return format_; }
  QDoubleSpinBox* max_gap_box() const { return max_gap_; }

 signals:
  void changed();

 private:
  PathField* path_ = nullptr;
  QComboBox* format_ = nullptr;
  QDoubleSpinBox* speedup_ = nullptr;
  QSpinBox* max_requests_ = nullptr;
  QDoubleSpinBox* max_duration_ = nullptr;
  QCheckBox* skip_bad_rows_ = nullptr;
  QDoubleSpinBox* max_gap_ = nullptr;
};

class SessionsForm : public QWidget {
  Q_OBJECT
 public:
  explicit SessionsForm(QWidget* parent = nullptr);
  nlohmann::json experiment_json(QString* error) const;
  void set_synthetic(int sessions, int turns, int system_prompt_tokens, int output_tokens);
  void set_sharegpt(const QString& path, int sessions, int max_turns);
  void set_total_sessions(int total);  // 0 = the default
  bool synthetic() const;
  QComboBox* source_box() const { return source_; }

 signals:
  void changed();

 private:
  void show_source();

  QFormLayout* form_ = nullptr;
  QComboBox* source_ = nullptr;
  PathField* path_ = nullptr;
  QSpinBox* sessions_ = nullptr;
  QSpinBox* total_ = nullptr;
  QSpinBox* turns_ = nullptr;
  QSpinBox* max_turns_ = nullptr;
  QSpinBox* system_tokens_ = nullptr;
  QSpinBox* user_tokens_ = nullptr;
  QDoubleSpinBox* think_time_ = nullptr;
  QSpinBox* output_ = nullptr;
};

class CapacityForm : public QWidget {
  Q_OBJECT
 public:
  explicit CapacityForm(QWidget* parent = nullptr);
  nlohmann::json experiment_json(QString* error) const;
  // SLOs in ms; 0 leaves one out.
  void set_slo(double ttft_p99_ms, double tpot_p99_ms);
  // "concurrency" or "rate".
  void set_load(const QString& load, double start, double max_load, double resolution);
  void set_probe(int requests, int warmups, int input_tokens, int output_tokens);
  void set_bounds(int max_probes, double max_duration_s);

 signals:
  void changed();

 private:
  void show_load();

  QDoubleSpinBox* ttft_ = nullptr;
  QDoubleSpinBox* tpot_ = nullptr;
  QComboBox* load_ = nullptr;
  QDoubleSpinBox* start_ = nullptr;
  QDoubleSpinBox* max_load_ = nullptr;
  QDoubleSpinBox* resolution_ = nullptr;
  QSpinBox* max_probes_ = nullptr;
  QDoubleSpinBox* max_duration_ = nullptr;
  QSpinBox* requests_ = nullptr;
  QSpinBox* warmups_ = nullptr;
  QSpinBox* input_ = nullptr;
  QSpinBox* output_ = nullptr;
};

}  // namespace lb::ui
