#pragma once
// Two read-only panes side by side with synchronised scrolling. Highlights are applied as
// QTextLayout format ranges on each block (no edits to the document), so a 150 KB output with
// thousands of ranges renders without rebuilding the text. Each pane can carry a footer under its
// text (the review's token strips), in the pane's column and indented as its text is. A change
// that is only whitespace (a space more, a tab for spaces, a line break) is drawn with visible
// marks, "·" for a space, "→" for a tab and "↵" before a line break, so it is not an invisible
// highlight.
#include <QList>
#include <QTextLayout>
#include <QWidget>

#include "widgets/diff/diff_types.h"

class QLabel;
class QPlainTextEdit;

namespace lb::widgets {

// SIDE with each changed range that holds only whitespace made visible (see above); the other
// text and ranges as they were, offsets moved past any "↵" added.
DiffSide with_visible_whitespace(const DiffSide& side);

class DiffView : public QWidget {
  Q_OBJECT
 public:
  enum class Side { Left, Right };
  explicit DiffView(QWidget* parent = nullptr);

  void set_diff(const DiffSide& left, const DiffSide& right);
  void show_message(const QString& text);  // "Computing differences…", "Select a pair"
  void clear();

  // The format ranges currently applied to a side, in document offsets (for tests).
  QList<QTextLayout::FormatRange> applied_ranges(Side side) const;
  QPlainTextEdit* pane(Side side) const;
  // Puts `footer` under the side's text, reparented into this view; its left and right edges are
  // the text's (the pane's frame and document margin). A later footer replaces the earlier one.
  void set_pane_footer(Side side, QWidget* footer);
  QWidget* pane_footer(Side side) const;
  static QColor background_for(DiffKind kind, bool refined);

 private:
  void apply(QPlainTextEdit* pane, QLabel* title, const DiffSide& side);
  void sync_scroll(QPlainTextEdit* from, QPlainTextEdit* to, bool vertical);

  QPlainTextEdit* left_ = nullptr;
  QPlainTextEdit* right_ = nullptr;
  QLabel* left_title_ = nullptr;
  QLabel* right_title_ = nullptr;
  QWidget* footers_[2] = {nullptr, nullptr};
  bool syncing_ = false;
};

}  // namespace lb::widgets
