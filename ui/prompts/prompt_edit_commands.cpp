#include "ui/prompts/prompt_edit_commands.h"

#include "models/prompt_set_model.h"

namespace lb::ui {

SetPromptCommand::SetPromptCommand(models::PromptSetModel* model, int row, plan::PromptSpec after,
                                   const QString& text, QString merge_key)
    : QUndoCommand(text),
      model_(model),
      row_(row),
      before_(*model->prompt_at(row)),
      after_(std::move(after)),
      merge_key_(std::move(merge_key)) {}

void SetPromptCommand::undo() { model_->set_prompt(row_, before_); }
void SetPromptCommand::redo() { model_->set_prompt(row_, after_); }

bool SetPromptCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = dynamic_cast<const SetPromptCommand*>(other);
  if (!next || next->row_ != row_ || next->merge_key_ != merge_key_) return false;
  after_ = next->after_;
  return true;
}

InsertPromptCommand::InsertPromptCommand(models::PromptSetModel* model, int row,
                                         plan::PromptSpec prompt)
    : QUndoCommand(QObject::tr("Add prompt")),
      model_(model),
      row_(row),
      prompt_(std::move(prompt)) {}

void InsertPromptCommand::undo() { model_->remove_prompt(row_); }
void InsertPromptCommand::redo() { model_->insert_prompt(row_, prompt_); }

RemovePromptCommand::RemovePromptCommand(models::PromptSetModel* model, int row)
    : QUndoCommand(QObject::tr("Remove prompt")),
      model_(model),
      row_(row),
      prompt_(*model->prompt_at(row)) {}

void RemovePromptCommand::undo() { model_->insert_prompt(row_, prompt_); }
void RemovePromptCommand::redo() { model_->remove_prompt(row_); }

}  // namespace lb::ui
