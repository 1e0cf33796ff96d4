#pragma once
// Undoable edits of a prompt set, replayed on a PromptSetModel. Typing into the text editor
// merges into one command per prompt and field, so one Ctrl+Z undoes a burst of typing, not one
// character.
#include <QUndoCommand>

#include "core/plan/prompt_set.h"

namespace lb::models {
class PromptSetModel;
}

namespace lb::ui {

class SetPromptCommand : public QUndoCommand {
 public:
  // merge_key: commands with the same non-empty key on the same row merge (e.g. "text").
  SetPromptCommand(models::PromptSetModel* model, int row, plan::PromptSpec after,
                   const QString& text, QString merge_key = {});
  void undo() override;
  void redo() override;
  int id() const override { return merge_key_.isEmpty() ? -1 : 1; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  models::PromptSetModel* model_;
  int row_;
  plan::PromptSpec before_, after_;
  QString merge_key_;
};

class InsertPromptCommand : public QUndoCommand {
 public:
  InsertPromptCommand(models::PromptSetModel* model, int row, plan::PromptSpec prompt);
  void undo() override;
  void redo() override;

 private:
  models::PromptSetModel* model_;
  int row_;
  plan::PromptSpec prompt_;
};

class RemovePromptCommand : public QUndoCommand {
 public:
  RemovePromptCommand(models::PromptSetModel* model, int row);
  void undo() override;
  void redo() override;

 private:
  models::PromptSetModel* model_;
  int row_;
  plan::PromptSpec prompt_;
};

}  // namespace lb::ui
