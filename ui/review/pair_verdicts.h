#pragma once
// The verdicts and notes given on one loaded lane pair of the Review page. Each step (a verdict,
// a note, an undo or a redo) is saved to the pair's review file at once; a step whose save
// failed is reported and not kept, and the record keeps what it had. The steps of the pair
// shown before are dropped when another pair is loaded.
#include <QObject>
#include <QUndoStack>
#include <cstddef>

#include "ui/review/review_session.h"
#include "ui/review/verdict_command.h"

class QWidget;

namespace lb::ui {

class PairVerdicts : public QObject {
  Q_OBJECT
 public:
  // DIALOG_PARENT shows a failed save.
  explicit PairVerdicts(QWidget* dialog_parent);

  // The lane pair whose record the steps change (nullptr: none), owned by the page.
  void set_pair(LoadedPair* pair);
  // Gives the prompt pair at INDEX of the record the state AFTER, saved, as the undoable step
  // TEXT ("Verdict Fail on p07"); false when there is no such pair or the save failed.
  bool give(const QString& text, std::size_t index, const VerdictState& after);
  QUndoStack* undo_stack() { return &undo_; }

 signals:
  // The record was saved with STATE at INDEX: a step given, undone or redone.
  void saved(std::size_t index, const lb::ui::VerdictState& state);

 private:
  bool apply(std::size_t index, const VerdictState& state);

  QWidget* dialog_parent_;
  LoadedPair* pair_ = nullptr;
  QUndoStack undo_;
};

}  // namespace lb::ui
