#pragma once
// The settings of a determinism experiment (docs/determinism.md): which prompts, how many
// repeated passes, the batch check's concurrency, the cache check, logprobs for the margins.
#include <QWidget>
#include <nlohmann/json.hpp>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace lb::ui {

class DeterminismForm : public QWidget {
  Q_OBJECT
 public:
  explicit DeterminismForm(QWidget* parent = nullptr);
  // The prompt-set picker (filled with the known sets by the experiment form).
  QComboBox* prompts() const { return prompts_; }
  // The experiment as the plan file holds it, with `prompt_set` as its "prompts".
  nlohmann::json experiment_json(const QString& prompt_set) const;
  void set_quick(int repeats, int max_tokens);

 signals:
  void changed();

 private:
  QComboBox* prompts_ = nullptr;
  QSpinBox* repeats_ = nullptr;
  QSpinBox* batch_ = nullptr;
  int batch_last_ = 16;
  QSpinBox* decode_load_ = nullptr;
  QCheckBox* cache_ = nullptr;
  QSpinBox* max_tokens_ = nullptr;
  QSpinBox* logprobs_ = nullptr;
};

}  // namespace lb::ui
