#pragma once
// What the side-by-side view paints: a word-level diff whose replaced spans are refined to
// characters, with short equal runs folded into their changed neighbours (as KDiff3 does) so a
// highlight does not scatter into one-letter islands. Ranges come in code points, UTF-16 units
// (QString / QTextLayout::FormatRange) and UTF-8 bytes (HTML) for both sides.
//
// An immutable value: compute it off the GUI thread, then share it freely.
#include <cstddef>
#include <string_view>
#include <vector>

#include "core/compare/sequence_matcher.h"

namespace lb::compare {

struct TextRange {  // half-open [begin, end)
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t size() const { return end - begin; }
  bool empty() const { return begin == end; }
  friend bool operator==(const TextRange&, const TextRange&) = default;
};

struct SideRange {
  TextRange code_points;
  TextRange utf16;
  TextRange utf8;
};

// One run of the diff. Runs cover both texts in order without gaps. Equal runs hold the same text
// on both sides; Delete runs are empty on side B, Insert runs empty on side A.
struct DiffRun {
  OpTag tag = OpTag::Equal;
  SideRange a;
  SideRange b;
};

struct HighlightOptions {
  // Equal runs shorter than this (code points) between changes are folded into the change.
  std::size_t fold_equal_below_code_points = 3;
  // Replaced spans longer than this (both sides together) are not refined to characters.
  std::size_t max_refine_code_points = 8000;
};

enum class Side { A, B };
enum class Unit { CodePoints, Utf16, Utf8 };

class DiffHighlight {
 public:
  static DiffHighlight compute(std::string_view a_utf8, std::string_view b_utf8,
                               const HighlightOptions& options = {});

  const std::vector<DiffRun>& runs() const { return runs_; }
  // The changed (non-equal) ranges of one side, sorted, non-empty, non-adjacent.
  std::vector<TextRange> changed_ranges(Side side, Unit unit) const;
  // Code points of one side inside changed runs.
  std::size_t changed_code_points(Side side) const;
  bool identical() const;

 private:
  explicit DiffHighlight(std::vector<DiffRun> runs) : runs_(std::move(runs)) {}
  std::vector<DiffRun> runs_;
};

}  // namespace lb::compare
