#include "ui/review/pair_highlighter.h"

#include <algorithm>

#include "core/compare/diff_highlight.h"

namespace lb::ui {
namespace {

using widgets::DiffKind;
using widgets::DiffRange;

DiffKind kind_of(compare::OpTag tag) {
  switch (tag) {
    case compare::OpTag::Insert:
      return DiffKind::Insert;
    case compare::OpTag::Delete:
      return DiffKind::Delete;
    case compare::OpTag::Replace:
      return DiffKind::Replace;
    case compare::OpTag::Equal:
      break;
  }
  return DiffKind::Equal;
}

void add_runs(const compare::DiffHighlight& diff, bool refined, std::vector<DiffRange>& a,
              std::vector<DiffRange>& b) {
  for (const compare::DiffRun& run : diff.runs()) {
    if (run.tag == compare::OpTag::Equal) continue;
    const DiffKind kind = kind_of(run.tag);
    if (!run.a.utf16.empty())
      a.push_back({static_cast<int>(run.a.utf16.begin), static_cast<int>(run.a.utf16.size()),
                   kind == DiffKind::Insert ? DiffKind::Replace : kind, refined});
    if (!run.b.utf16.empty())
      b.push_back({static_cast<int>(run.b.utf16.begin), static_cast<int>(run.b.utf16.size()),
                   kind == DiffKind::Delete ? DiffKind::Replace : kind, refined});
  }
}

void sort_ranges(std::vector<DiffRange>& ranges) {
  // Word spans before the refinements they contain, so the darker format wins where they overlap.
  std::stable_sort(ranges.begin(), ranges.end(), [](const DiffRange& x, const DiffRange& y) {
    return x.start != y.start ? x.start < y.start : x.refined < y.refined;
  });
}

}  // namespace

std::pair<widgets::DiffSide, widgets::DiffSide> highlight_pair(const std::string& a_utf8,
                                                               const std::string& b_utf8) {
  widgets::DiffSide a{QString(), QString::fromStdString(a_utf8), {}};
  widgets::DiffSide b{QString(), QString::fromStdString(b_utf8), {}};
  if (a_utf8 == b_utf8) return {a, b};
  compare::HighlightOptions words;
  words.max_refine_code_points = 0;  // whole replaced word spans
  add_runs(compare::DiffHighlight::compute(a_utf8, b_utf8, words), false, a.ranges, b.ranges);
  // Character refinement inside the replaced spans; only its Replace runs add information.
  const compare::DiffHighlight chars = compare::DiffHighlight::compute(a_utf8, b_utf8);
  std::vector<DiffRange> ra, rb;
  add_runs(chars, true, ra, rb);
  auto keep_inside = [](const std::vector<DiffRange>& spans, std::vector<DiffRange>& refined,
                        std::vector<DiffRange>& out) {
    for (const DiffRange& r : refined) {
      const bool inside = std::any_of(spans.begin(), spans.end(), [&](const DiffRange& s) {
        return !s.refined && s.kind == DiffKind::Replace && r.start >= s.start &&
               r.start + r.length <= s.start + s.length && r.length < s.length;
      });
      if (inside) out.push_back(r);
    }
  };
  const std::vector<DiffRange> a_words = a.ranges, b_words = b.ranges;
  keep_inside(a_words, ra, a.ranges);
  keep_inside(b_words, rb, b.ranges);
  sort_ranges(a.ranges);
  sort_ranges(b.ranges);
  return {a, b};
}

}  // namespace lb::ui
