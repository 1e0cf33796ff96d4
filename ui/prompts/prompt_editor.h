#pragma once
// Edits one prompt: id, category, max tokens, the text of its (last) user turn, and its fact
// checks of every kind core supports. It never changes a prompt itself: each edit is emitted as
// the whole new prompt, so the page can push it onto its undo stack.
#include <QWidget>
#include <functional>
#include <optional>

#include "core/plan/prompt_set.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace lb::ui {

// The text a prompt asks: its prompt, or the content of its last user message.
std::string prompt_text(const plan::PromptSpec& prompt);
void set_prompt_text(plan::PromptSpec& prompt, const std::string& text);

class PromptEditor : public QWidget {
  Q_OBJECT
 public:
  explicit PromptEditor(QWidget* parent = nullptr);

  // Shows the prompt (nullptr = none selected). Does not emit edited().
  void show_prompt(const plan::PromptSpec* prompt, bool read_only);
  QPlainTextEdit* text_edit() const { return text_; }
  QLineEdit* id_edit() const { return id_; }
  QListWidget* checks_list() const { return checks_; }
  // The check the "add check" fields describe, or nullopt with *error.
  std::optional<plan::FactCheck> check_from_fields(QString* error) const;
  void add_check_from_fields();
  void remove_selected_check();

 signals:
  // what: the undo text ("Edit text"); merge_key: non-empty when successive edits may merge.
  void edited(const lb::plan::PromptSpec& after, const QString& what, const QString& merge_key);
  void problem(const QString& text);

 private:
  void emit_edit(const QString& what, const QString& merge_key,
                 const std::function<void(plan::PromptSpec&)>& change);
  void update_check_fields();
  QWidget* build_check_fields();

  std::optional<plan::PromptSpec> shown_;
  bool loading_ = false;
  QLineEdit* id_ = nullptr;
  QLineEdit* category_ = nullptr;
  QSpinBox* max_tokens_ = nullptr;
  QLabel* text_label_ = nullptr;
  QPlainTextEdit* text_ = nullptr;
  QLabel* tokens_ = nullptr;
  QListWidget* checks_ = nullptr;
  QComboBox* check_type_ = nullptr;
  QLineEdit* check_value_ = nullptr;
  QDoubleSpinBox* check_tolerance_ = nullptr;
  QCheckBox* check_ignore_case_ = nullptr;
  QCheckBox* check_last_ = nullptr;
  QPushButton* add_check_ = nullptr;
  QPushButton* remove_check_ = nullptr;
};

}  // namespace lb::ui
