#pragma once
// What a diff pane shows: the text and its highlighted ranges, as plain values so any comparer
// (core/compare's highlight model, a test) can feed it. Offsets count UTF-16 code units, as
// QString does.
#include <QString>
#include <vector>

namespace lb::widgets {

enum class DiffKind { Equal, Replace, Insert, Delete };

struct DiffRange {
  int start = 0;   // UTF-16 code units from the start of the text
  int length = 0;  // UTF-16 code units
  DiffKind kind = DiffKind::Replace;
  bool refined = false;  // a character-level refinement inside a replaced word span: darker
};

struct DiffSide {
  QString title;  // "bf16", shown above the pane
  QString text;
  std::vector<DiffRange> ranges;  // sorted, non-overlapping; Equal ranges need not be listed
};

}  // namespace lb::widgets
