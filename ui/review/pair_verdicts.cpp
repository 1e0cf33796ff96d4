#include "ui/review/pair_verdicts.h"

#include <QMessageBox>
#include <QWidget>
#include <string>
#include <utility>

namespace lb::ui {

PairVerdicts::PairVerdicts(QWidget* dialog_parent)
    : QObject(dialog_parent), dialog_parent_(dialog_parent) {}

void PairVerdicts::set_pair(LoadedPair* pair) {
  pair_ = pair;
  undo_.clear();  // its steps belong to the pair shown before
}

bool PairVerdicts::give(const QString& text, std::size_t index, const VerdictState& after) {
  if (!pair_ || index >= pair_->record.pairs.size()) return false;
  VerdictState before = VerdictState::of(pair_->record.pairs[index]);
  if (!apply(index, after)) return false;
  undo_.push(
      new VerdictCommand(text, index, std::move(before), after,
                         [this](std::size_t i, const VerdictState& s) { return apply(i, s); }));
  return true;
}

bool PairVerdicts::apply(std::size_t index, const VerdictState& state) {
  if (!pair_ || index >= pair_->record.pairs.size()) return false;
  compare::PairReview& review = pair_->record.pairs[index];
  const VerdictState before = VerdictState::of(review);
  state.apply_to(review);
  std::string error;
  if (!compare::save_review(pair_->record, pair_->path.toStdString(), &error)) {
    before.apply_to(review);
    QMessageBox::critical(dialog_parent_, tr("Verdict not saved"), QString::fromStdString(error));
    return false;
  }
  emit saved(index, state);
  return true;
}

}  // namespace lb::ui
