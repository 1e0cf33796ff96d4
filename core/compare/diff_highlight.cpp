#include "core/compare/diff_highlight.h"

#include "core/compare/code_point_text.h"
#include "core/compare/similarity.h"
#include "core/compare/word_tokens.h"

namespace lb::compare {
namespace {

struct CpRun {  // a run in code point indices, before offsets are attached
  bool changed = false;
  TextRange a;
  TextRange b;
};

TextRange token_span(const std::vector<WordToken>& tokens, std::size_t first, std::size_t last,
                     std::size_t text_size) {
  if (first == last) {
    const std::size_t at = first < tokens.size() ? tokens[first].begin : text_size;
    return {at, at};
  }
  return {tokens[first].begin, tokens[last - 1].end};
}

// Character diff inside one replaced word span. Every short equal run is folded here, at the
// span's edges too: the words around it changed anyway, and a lone matching letter ("cats" vs
// "dogs") would only scatter the highlight.
void refine(const std::u32string& a, const std::u32string& b, TextRange ra, TextRange rb,
            std::size_t fold_below, std::vector<CpRun>& out) {
  CharMatcher matcher(std::vector<char32_t>(a.begin() + ra.begin, a.begin() + ra.end),
                      std::vector<char32_t>(b.begin() + rb.begin, b.begin() + rb.end));
  for (const Opcode& op : matcher.opcodes()) {
    const bool changed = op.tag != OpTag::Equal || op.a_end - op.a_begin < fold_below;
    out.push_back({changed,
                   {ra.begin + op.a_begin, ra.begin + op.a_end},
                   {rb.begin + op.b_begin, rb.begin + op.b_end}});
  }
}

std::vector<CpRun> code_point_runs(const std::u32string& a, const std::u32string& b,
                                   const HighlightOptions& options) {
  const TokenizedPair tokens = tokenize_pair(a, b);
  const TokenMatcher matcher(tokens.a_ids, tokens.b_ids);
  std::vector<CpRun> runs;
  for (const Opcode& op : matcher.opcodes()) {
    const TextRange ra = token_span(tokens.a_tokens, op.a_begin, op.a_end, a.size());
    const TextRange rb = token_span(tokens.b_tokens, op.b_begin, op.b_end, b.size());
    if (op.tag == OpTag::Replace && ra.size() + rb.size() <= options.max_refine_code_points) {
      refine(a, b, ra, rb, options.fold_equal_below_code_points, runs);
    } else {
      runs.push_back({op.tag != OpTag::Equal, ra, rb});
    }
  }
  return runs;
}

// Folds short equal runs sandwiched between changes, then merges neighbouring changes.
std::vector<CpRun> fold_and_merge(const std::vector<CpRun>& runs, std::size_t fold_below) {
  std::vector<CpRun> out;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    CpRun run = runs[k];
    if (run.a.empty() && run.b.empty()) continue;
    const bool sandwiched =
        k > 0 && k + 1 < runs.size() && runs[k - 1].changed && runs[k + 1].changed;
    if (!run.changed && sandwiched && run.a.size() < fold_below) run.changed = true;
    if (!out.empty() && out.back().changed == run.changed) {
      out.back().a.end = run.a.end;
      out.back().b.end = run.b.end;
    } else {
      out.push_back(run);
    }
  }
  return out;
}

SideRange side_range(const CodePointText& text, TextRange cp) {
  return {cp,
          {text.utf16_offset(cp.begin), text.utf16_offset(cp.end)},
          {text.utf8_offset(cp.begin), text.utf8_offset(cp.end)}};
}

OpTag tag_for(const CpRun& run) {
  if (!run.changed) return OpTag::Equal;
  if (run.a.empty()) return OpTag::Insert;
  if (run.b.empty()) return OpTag::Delete;
  return OpTag::Replace;
}

const TextRange& pick(const SideRange& range, Unit unit) {
  switch (unit) {
    case Unit::CodePoints:
      return range.code_points;
    case Unit::Utf16:
      return range.utf16;
    case Unit::Utf8:
      return range.utf8;
  }
  return range.code_points;
}

}  // namespace

DiffHighlight DiffHighlight::compute(std::string_view a_utf8, std::string_view b_utf8,
                                     const HighlightOptions& options) {
  const CodePointText a(a_utf8);
  const CodePointText b(b_utf8);
  std::vector<CpRun> runs;
  if (a_utf8 == b_utf8) {
    runs.push_back({false, {0, a.size()}, {0, b.size()}});
  } else {
    runs = fold_and_merge(code_point_runs(a.code_points(), b.code_points(), options),
                          options.fold_equal_below_code_points);
  }
  std::vector<DiffRun> out;
  out.reserve(runs.size());
  for (const CpRun& run : runs) {
    if (run.a.empty() && run.b.empty()) continue;
    out.push_back({tag_for(run), side_range(a, run.a), side_range(b, run.b)});
  }
  return DiffHighlight(std::move(out));
}

std::vector<TextRange> DiffHighlight::changed_ranges(Side side, Unit unit) const {
  std::vector<TextRange> out;
  for (const DiffRun& run : runs_) {
    if (run.tag == OpTag::Equal) continue;
    const TextRange& r = pick(side == Side::A ? run.a : run.b, unit);
    if (r.empty()) continue;
    if (!out.empty() && out.back().end == r.begin) {
      out.back().end = r.end;
    } else {
      out.push_back(r);
    }
  }
  return out;
}

std::size_t DiffHighlight::changed_code_points(Side side) const {
  std::size_t total = 0;
  for (const auto& r : changed_ranges(side, Unit::CodePoints)) total += r.size();
  return total;
}

bool DiffHighlight::identical() const {
  for (const DiffRun& run : runs_) {
    if (run.tag != OpTag::Equal) return false;
  }
  return true;
}

}  // namespace lb::compare
