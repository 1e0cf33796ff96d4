#include "ui/prompts/prompt_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

#include "models/prompt_set_model.h"
#include "ui/prompts/prompt_set_store.h"

namespace lb::ui {
namespace {

constexpr plan::CheckType kCheckTypes[] = {plan::CheckType::MustContain,
                                           plan::CheckType::MustNotContain, plan::CheckType::Regex,
                                           plan::CheckType::Numeric, plan::CheckType::ValidJson};

plan::ChatMessage* last_user(plan::PromptSpec& prompt) {
  for (auto it = prompt.messages.rbegin(); it != prompt.messages.rend(); ++it)
    if (it->role == "user") return &*it;
  return nullptr;
}

}  // namespace

std::string prompt_text(const plan::PromptSpec& prompt) {
  if (prompt.messages.empty()) return prompt.prompt;
  for (auto it = prompt.messages.rbegin(); it != prompt.messages.rend(); ++it)
    if (it->role == "user") return it->content;
  return {};
}

void set_prompt_text(plan::PromptSpec& prompt, const std::string& text) {
  if (plan::ChatMessage* m = last_user(prompt)) {
    m->content = text;
    return;
  }
  prompt.prompt = text;
}

PromptEditor::PromptEditor(QWidget* parent) : QWidget(parent) {
  id_ = new QLineEdit(this);
  id_->setAccessibleName(tr("Prompt id"));
  category_ = new QLineEdit(this);
  category_->setAccessibleName(tr("Category"));
  max_tokens_ = new QSpinBox(this);
  max_tokens_->setRange(1, 1'000'000);
  max_tokens_->setSuffix(tr(" tok"));
  text_ = new QPlainTextEdit(this);
  text_->setAccessibleName(tr("Prompt text"));
  // Undo belongs to the page's stack, so one Ctrl+Z means the same thing everywhere.
  text_->setUndoRedoEnabled(false);
  text_label_ = new QLabel(tr("&Text:"), this);
  text_label_->setBuddy(text_);
  tokens_ = new QLabel(this);
  tokens_->setToolTip(tr("Estimated: characters / 4, rounded up, over every message"));
  checks_ = new QListWidget(this);
  checks_->setAccessibleName(tr("Fact checks"));
  checks_->setMaximumHeight(110);

  auto* form = new QFormLayout;
  form->addRow(tr("&Id:"), id_);
  form->addRow(tr("C&ategory:"), category_);
  form->addRow(tr("&Max tokens:"), max_tokens_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(form);
  layout->addWidget(text_label_);
  layout->addWidget(text_, 1);
  layout->addWidget(tokens_);
  auto* checks_label = new QLabel(tr("Fact &checks:"), this);
  checks_label->setBuddy(checks_);
  layout->addWidget(checks_label);
  layout->addWidget(checks_);
  layout->addWidget(build_check_fields());

  connect(text_, &QPlainTextEdit::textChanged, this, [this] {
    const std::string text = text_->toPlainText().toStdString();
    emit_edit(tr("Edit text"), "text", [&](plan::PromptSpec& p) { set_prompt_text(p, text); });
  });
  connect(id_, &QLineEdit::editingFinished, this, [this] {
    const std::string id = id_->text().trimmed().toStdString();
    if (id.empty()) return emit problem(tr("A prompt id cannot be empty."));
    emit_edit(tr("Rename prompt"), {}, [&](plan::PromptSpec& p) { p.id = id; });
  });
  connect(category_, &QLineEdit::editingFinished, this, [this] {
    const std::string category = category_->text().trimmed().toStdString();
    emit_edit(tr("Edit category"), {}, [&](plan::PromptSpec& p) { p.category = category; });
  });
  connect(max_tokens_, &QSpinBox::editingFinished, this, [this] {
    const int value = max_tokens_->value();
    emit_edit(tr("Edit max tokens"), {}, [&](plan::PromptSpec& p) { p.max_tokens = value; });
  });
  show_prompt(nullptr, true);
}

QWidget* PromptEditor::build_check_fields() {
  auto* box = new QWidget(this);
  check_type_ = new QComboBox(box);
  check_type_->setAccessibleName(tr("Check kind"));
  for (plan::CheckType type : kCheckTypes)
    check_type_->addItem(QString::fromUtf8(plan::check_type_name(type).data()),
                         static_cast<int>(type));
  check_value_ = new QLineEdit(box);
  check_value_->setAccessibleName(tr("Check value"));
  check_tolerance_ = new QDoubleSpinBox(box);
  check_tolerance_->setRange(0, 1e12);
  check_tolerance_->setDecimals(4);
  check_tolerance_->setPrefix(tr("± "));
  check_ignore_case_ = new QCheckBox(tr("Ignore case"), box);
  check_last_ = new QCheckBox(tr("Last number"), box);
  add_check_ = new QPushButton(tr("Add chec&k"), box);
  remove_check_ = new QPushButton(tr("Remove check"), box);
  connect(check_type_, &QComboBox::currentIndexChanged, this, &PromptEditor::update_check_fields);
  connect(add_check_, &QPushButton::clicked, this, &PromptEditor::add_check_from_fields);
  connect(check_value_, &QLineEdit::returnPressed, this, &PromptEditor::add_check_from_fields);
  connect(remove_check_, &QPushButton::clicked, this, &PromptEditor::remove_selected_check);
  auto* row1 = new QHBoxLayout;
  row1->addWidget(check_type_);
  row1->addWidget(check_value_, 1);
  auto* row2 = new QHBoxLayout;
  row2->addWidget(check_tolerance_);
  row2->addWidget(check_ignore_case_);
  row2->addWidget(check_last_);
  row2->addStretch(1);
  // The buttons get their own row: on one row with the options they set the page's minimum
  // width, and the window grew wider whenever this page was shown.
  auto* row3 = new QHBoxLayout;
  row3->addStretch(1);
  row3->addWidget(add_check_);
  row3->addWidget(remove_check_);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(row1);
  layout->addLayout(row2);
  layout->addLayout(row3);
  update_check_fields();
  return box;
}

void PromptEditor::update_check_fields() {
  const auto type = static_cast<plan::CheckType>(check_type_->currentData().toInt());
  const bool numeric = type == plan::CheckType::Numeric;
  const bool text = !numeric && type != plan::CheckType::ValidJson;
  check_value_->setEnabled(type != plan::CheckType::ValidJson);
  check_value_->setPlaceholderText(numeric                          ? tr("expected number")
                                   : type == plan::CheckType::Regex ? tr("pattern (ECMAScript)")
                                   : text                           ? tr("text")
                                                                    : tr("(no value)"));
  check_tolerance_->setEnabled(numeric);
  check_last_->setEnabled(numeric);
  check_ignore_case_->setEnabled(text);
}

void PromptEditor::show_prompt(const plan::PromptSpec* prompt, bool read_only) {
  loading_ = true;
  if (prompt) {
    shown_ = *prompt;
  } else {
    shown_.reset();
  }
  const bool editable = prompt && !read_only;
  for (QLineEdit* e : {id_, category_}) e->setReadOnly(!editable);
  max_tokens_->setReadOnly(!editable);
  text_->setReadOnly(!editable);
  for (QWidget* w :
       std::initializer_list<QWidget*>{check_type_, check_value_, add_check_, remove_check_,
                                       check_tolerance_, check_ignore_case_, check_last_})
    w->setEnabled(editable);
  id_->setText(prompt ? QString::fromStdString(prompt->id) : QString());
  category_->setText(prompt ? QString::fromStdString(prompt->category) : QString());
  max_tokens_->setValue(prompt ? prompt->max_tokens : 256);
  const QString text = prompt ? QString::fromStdString(prompt_text(*prompt)) : QString();
  if (text_->toPlainText() != text) text_->setPlainText(text);
  text_label_->setText(prompt && !prompt->messages.empty()
                           ? tr("&Text of the last user turn (%1 messages in the chat):")
                                 .arg(prompt->messages.size())
                           : tr("&Text:"));
  tokens_->setText(prompt ? tr("≈ %1 tokens (estimated: characters / 4)")
                                .arg(models::estimate_prompt_spec_tokens(*prompt))
                          : QString());
  checks_->clear();
  if (prompt)
    for (const plan::FactCheck& c : prompt->checks)
      checks_->addItem(QString::fromStdString(plan::describe_check(c)));
  if (editable) update_check_fields();
  loading_ = false;
}

void PromptEditor::emit_edit(const QString& what, const QString& merge_key,
                             const std::function<void(plan::PromptSpec&)>& change) {
  if (loading_ || !shown_ || text_->isReadOnly()) return;
  plan::PromptSpec after = *shown_;
  change(after);
  if (prompt_to_jsonl(after) == prompt_to_jsonl(*shown_)) return;
  shown_ = after;
  emit edited(after, what, merge_key);
}

std::optional<plan::FactCheck> PromptEditor::check_from_fields(QString* error) const {
  plan::FactCheck check;
  check.type = static_cast<plan::CheckType>(check_type_->currentData().toInt());
  const QString value = check_value_->text();
  switch (check.type) {
    case plan::CheckType::Numeric: {
      bool ok = false;
      check.number = value.trimmed().toDouble(&ok);
      if (!ok) {
        *error = tr("A numeric check needs a number, got \"%1\".").arg(value);
        return std::nullopt;
      }
      check.tolerance = check_tolerance_->value();
      check.match = check_last_->isChecked() ? plan::NumericMatch::Last : plan::NumericMatch::Any;
      break;
    }
    case plan::CheckType::Regex:
      if (!QRegularExpression(value).isValid()) {
        *error = tr("The pattern \"%1\" is not a valid regular expression.").arg(value);
        return std::nullopt;
      }
      [[fallthrough]];
    case plan::CheckType::MustContain:
    case plan::CheckType::MustNotContain:
      if (value.isEmpty()) {
        *error = tr("This check needs a value.");
        return std::nullopt;
      }
      check.text = value.toStdString();
      check.ignore_case = check_ignore_case_->isChecked();
      break;
    case plan::CheckType::ValidJson:
      break;
  }
  return check;
}

void PromptEditor::add_check_from_fields() {
  QString error;
  const std::optional<plan::FactCheck> check = check_from_fields(&error);
  if (!check) return emit problem(error);
  emit_edit(tr("Add check"), {}, [&](plan::PromptSpec& p) { p.checks.push_back(*check); });
  check_value_->clear();
}

void PromptEditor::remove_selected_check() {
  const int row = checks_->currentRow();
  if (row < 0) return emit problem(tr("Select the check to remove."));
  emit_edit(tr("Remove check"), {}, [&](plan::PromptSpec& p) {
    if (row < static_cast<int>(p.checks.size())) p.checks.erase(p.checks.begin() + row);
  });
}

}  // namespace lb::ui
