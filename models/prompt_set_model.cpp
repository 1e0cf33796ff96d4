#include "models/prompt_set_model.h"

#include <algorithm>

#include "core/plan/synthetic_prompt.h"
#include "models/item_roles.h"

namespace lb::models {
namespace {

QString first_line(const plan::PromptSpec& prompt) {
  const auto chat = prompt.chat();
  // The last user turn is what the prompt asks; earlier turns are context.
  QString text;
  for (const plan::ChatMessage& m : chat)
    if (m.role == "user") text = QString::fromStdString(m.content);
  const QString trimmed = text.trimmed();
  const qsizetype newline = trimmed.indexOf('\n');
  return newline < 0 ? trimmed : trimmed.left(newline) + QStringLiteral(" …");
}

}  // namespace

int64_t estimate_prompt_spec_tokens(const plan::PromptSpec& prompt) {
  int64_t tokens = 0;
  for (const plan::ChatMessage& m : prompt.chat())
    tokens += plan::estimate_prompt_tokens(m.content);
  return tokens;
}

void PromptSetModel::set_prompts(std::vector<plan::PromptSpec> prompts) {
  beginResetModel();
  prompts_ = std::move(prompts);
  endResetModel();
  emit total_tokens_changed(total_tokens());
}

const plan::PromptSpec* PromptSetModel::prompt_at(int row) const {
  if (row < 0 || row >= static_cast<int>(prompts_.size())) return nullptr;
  return &prompts_[static_cast<size_t>(row)];
}

void PromptSetModel::set_prompt(int row, plan::PromptSpec prompt) {
  if (!prompt_at(row)) return;
  prompts_[static_cast<size_t>(row)] = std::move(prompt);
  emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
  emit total_tokens_changed(total_tokens());
}

void PromptSetModel::insert_prompt(int row, plan::PromptSpec prompt) {
  row = std::clamp(row, 0, rowCount());
  beginInsertRows({}, row, row);
  prompts_.insert(prompts_.begin() + row, std::move(prompt));
  endInsertRows();
  emit total_tokens_changed(total_tokens());
}

void PromptSetModel::remove_prompt(int row) {
  if (!prompt_at(row)) return;
  beginRemoveRows({}, row, row);
  prompts_.erase(prompts_.begin() + row);
  endRemoveRows();
  emit total_tokens_changed(total_tokens());
}

int64_t PromptSetModel::total_tokens() const {
  int64_t total = 0;
  for (const plan::PromptSpec& p : prompts_) total += estimate_prompt_spec_tokens(p);
  return total;
}

QString PromptSetModel::unused_id() const {
  for (int n = rowCount() + 1;; ++n) {
    const std::string id = "prompt-" + std::to_string(n);
    bool used = false;
    for (const plan::PromptSpec& p : prompts_) used = used || p.id == id;
    if (!used) return QString::fromStdString(id);
  }
}

int PromptSetModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(prompts_.size());
}

int PromptSetModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant PromptSetModel::data(const QModelIndex& index, int role) const {
  const plan::PromptSpec* p = index.isValid() ? prompt_at(index.row()) : nullptr;
  if (!p) return {};
  const int column = index.column();
  if (role == Qt::DisplayRole || role == SortRole) {
    switch (column) {
      case Id:
        return QString::fromStdString(p->id);
      case Category:
        return QString::fromStdString(p->category);
      case FirstLine:
        return first_line(*p);
      case Tokens:
        return QVariant::fromValue<qlonglong>(estimate_prompt_spec_tokens(*p));
      case Checks:
        return static_cast<int>(p->checks.size());
      default:
        return {};
    }
  }
  if (role == CategoryRole) return QString::fromStdString(p->category);
  if (role == PromptIndexRole) return index.row();
  if (role == ProvenanceRole && column == Tokens) return QStringLiteral("estimated");
  if (role == Qt::TextAlignmentRole && (column == Tokens || column == Checks))
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && column == FirstLine) {
    QString text;
    for (const plan::ChatMessage& m : p->chat())
      text += QString::fromStdString(m.role) + ": " + QString::fromStdString(m.content) + "\n";
    return text.trimmed().left(2000);
  }
  return {};
}

QVariant PromptSetModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole && section == Tokens)
    return tr("Estimated tokens: characters / 4, rounded up (no tokenizer at hand)");
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case Id:
      return tr("Id");
    case Category:
      return tr("Category");
    case FirstLine:
      return tr("Prompt");
    case Tokens:
      return tr("Tokens (est.)");
    case Checks:
      return tr("Checks");
    default:
      return {};
  }
}

}  // namespace lb::models
