#pragma once
// The prompts of one prompt set as a table: id, category, first line, token estimate and number
// of fact checks. Edits go through set_prompt/insert_prompt/remove_prompt so an undo stack can
// replay them; the model itself keeps no history.
#include <QAbstractTableModel>
#include <vector>

#include "core/plan/prompt_set.h"

namespace lb::models {

// Token estimate of a prompt: every message's content at plan::kCharsPerToken characters per
// token (ceil(chars / 4)), the estimate core uses wherever no tokenizer is at hand.
int64_t estimate_prompt_spec_tokens(const plan::PromptSpec& prompt);

class PromptSetModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Id, Category, FirstLine, Tokens, Checks, ColumnCount };
  using QAbstractTableModel::QAbstractTableModel;

  void set_prompts(std::vector<plan::PromptSpec> prompts);
  const std::vector<plan::PromptSpec>& prompts() const { return prompts_; }
  const plan::PromptSpec* prompt_at(int row) const;
  void set_prompt(int row, plan::PromptSpec prompt);
  void insert_prompt(int row, plan::PromptSpec prompt);
  void remove_prompt(int row);
  int64_t total_tokens() const;
  // A prompt id not used yet in this set ("prompt-N").
  QString unused_id() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 signals:
  void total_tokens_changed(qint64 tokens);

 private:
  std::vector<plan::PromptSpec> prompts_;
};

}  // namespace lb::models
