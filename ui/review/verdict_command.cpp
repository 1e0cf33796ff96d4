#include "ui/review/verdict_command.h"

#include <utility>

namespace lb::ui {

VerdictState VerdictState::of(const compare::PairReview& review) {
  return {review.verdict, review.note, review.reviewed_at};
}

void VerdictState::apply_to(compare::PairReview& review) const {
  review.verdict = verdict;
  review.note = note;
  review.reviewed_at = reviewed_at;
}

VerdictCommand::VerdictCommand(const QString& text, std::size_t index, VerdictState before,
                               VerdictState after, Apply apply)
    : QUndoCommand(text),
      index_(index),
      before_(std::move(before)),
      after_(std::move(after)),
      apply_(std::move(apply)) {}

void VerdictCommand::undo() { apply_(index_, before_); }

void VerdictCommand::redo() {
  if (std::exchange(applied_, false)) return;
  apply_(index_, after_);
}

}  // namespace lb::ui
