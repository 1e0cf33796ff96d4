#pragma once
// One verdict (or note) given on the Review page, undoable with Ctrl+Z: it keeps the prompt
// pair's verdict, note and time before and after, and applies either through the page, which
// saves the record at once. The reviewer's first application happens before the command is
// pushed (so a failed save is reported and nothing is pushed); redo() skips that first call.
#include <QUndoCommand>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "core/compare/review_record.h"

namespace lb::ui {

struct VerdictState {
  compare::Verdict verdict = compare::Verdict::Unreviewed;
  std::string note;
  std::optional<compare::SystemTime> reviewed_at;
  static VerdictState of(const compare::PairReview& review);
  void apply_to(compare::PairReview& review) const;
};

class VerdictCommand : public QUndoCommand {
 public:
  // Applies a state to the prompt pair at INDEX of the loaded lane pair; false when not saved.
  using Apply = std::function<bool(std::size_t index, const VerdictState& state)>;
  VerdictCommand(const QString& text, std::size_t index, VerdictState before, VerdictState after,
                 Apply apply);
  void undo() override;
  void redo() override;

 private:
  std::size_t index_;
  VerdictState before_, after_;
  Apply apply_;
  bool applied_ = true;  // the page applied AFTER itself before pushing
};

}  // namespace lb::ui
