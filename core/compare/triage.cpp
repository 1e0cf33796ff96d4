#include "core/compare/triage.h"

#include <algorithm>
#include <string_view>

#include "core/compare/char_classes.h"
#include "core/compare/code_point_text.h"
#include "core/compare/number_scan.h"
#include "core/compare/sequence_matcher.h"
#include "core/compare/similarity.h"

namespace lb::compare {
namespace {

std::u32string normalized(const std::u32string& text, bool drop_space, bool lower) {
  std::u32string out;
  out.reserve(text.size());
  for (char32_t cp : text) {
    if (drop_space && is_space(cp)) continue;
    out.push_back(lower ? simple_lower(cp) : cp);
  }
  return out;
}

// Sentence punctuation: what "differs only in punctuation" may differ in. Symbols that carry
// meaning (% $ + = / - and the like) are not in it.
bool is_punctuation(char32_t cp) {
  // ASCII, then ¡ « » ¿, 、 。, and the full-width ！ ， ． ： ； ？
  constexpr std::u32string_view kMarks =
      U".,;:!?'\"()[]{}`\u00A1\u00AB\u00BB\u00BF\u3001\u3002\uFF01\uFF0C\uFF0E\uFF1A\uFF1B\uFF1F";
  // U+2010-U+2027: dashes, curly quotes, bullets, the ellipsis.
  return kMarks.find(cp) != std::u32string_view::npos || (cp >= U'\u2010' && cp <= U'\u2027');
}

std::u32string without_punctuation_or_space(const std::u32string& text) {
  std::u32string out;
  out.reserve(text.size());
  for (char32_t cp : text)
    if (!is_space(cp) && !is_punctuation(cp)) out.push_back(cp);
  return out;
}

std::vector<NumberChange> number_changes(std::string_view a, std::string_view b) {
  const auto na = scan_numbers(a);
  const auto nb = scan_numbers(b);
  std::vector<double> va;
  std::vector<double> vb;
  for (const auto& n : na) va.push_back(n.value);
  for (const auto& n : nb) vb.push_back(n.value);
  // Compared by value so "7.50" and "7.5" are the same number; aligned like a diff so an inserted
  // number does not make every later one look changed.
  const SequenceMatcher<double> matcher(std::move(va), std::move(vb), nullptr, false);
  std::vector<NumberChange> out;
  for (const Opcode& op : matcher.opcodes()) {
    if (op.tag == OpTag::Equal) continue;
    const std::size_t la = op.a_end - op.a_begin;
    const std::size_t lb = op.b_end - op.b_begin;
    for (std::size_t k = 0; k < std::max(la, lb); ++k) {
      NumberChange change;
      if (k < la) change.before = na[op.a_begin + k].text;
      if (k < lb) change.after = nb[op.b_begin + k].text;
      out.push_back(std::move(change));
      if (out.size() == kMaxListedNumberChanges) return out;
    }
  }
  return out;
}

}  // namespace

const char* triage_name(TriageClass triage) {
  switch (triage) {
    case TriageClass::Identical:
      return "identical";
    case TriageClass::NearIdentical:
      return "near_identical";
    case TriageClass::Divergent:
      return "divergent";
  }
  return "divergent";
}

bool triage_from_name(std::string_view name, TriageClass& out) {
  for (auto t : {TriageClass::Identical, TriageClass::NearIdentical, TriageClass::Divergent}) {
    if (name == triage_name(t)) {
      out = t;
      return true;
    }
  }
  return false;
}

std::string NumberChange::label() const {
  if (before.empty()) return after + " added";
  if (after.empty()) return before + " removed";
  return before + " \u2192 " + after;
}

const char* difference_kind_name(DifferenceKind kind) {
  switch (kind) {
    case DifferenceKind::None:
      return "";
    case DifferenceKind::WhitespaceOnly:
      return "whitespace_only";
    case DifferenceKind::CaseOnly:
      return "case_only";
    case DifferenceKind::WhitespaceAndCase:
      return "whitespace_and_case";
    case DifferenceKind::PunctuationOnly:
      return "punctuation_only";
  }
  return "";
}

std::vector<std::string> TriageResult::labels() const {
  if (difference == DifferenceKind::None) return {};
  return {difference_kind_name(difference)};
}

TriageResult triage_pair(std::string_view a_utf8, std::string_view b_utf8,
                         double near_identical_threshold) {
  TriageResult result;
  if (a_utf8 == b_utf8) return result;
  const std::u32string a = decode_utf8(a_utf8);
  const std::u32string b = decode_utf8(b_utf8);
  result.ratio = CharMatcher(std::vector<char32_t>(a.begin(), a.end()),
                             std::vector<char32_t>(b.begin(), b.end()))
                     .ratio();
  result.triage = result.ratio >= near_identical_threshold ? TriageClass::NearIdentical
                                                           : TriageClass::Divergent;
  if (normalized(a, true, false) == normalized(b, true, false)) {
    result.difference = DifferenceKind::WhitespaceOnly;
  } else if (normalized(a, false, true) == normalized(b, false, true)) {
    result.difference = DifferenceKind::CaseOnly;
  } else if (normalized(a, true, true) == normalized(b, true, true)) {
    result.difference = DifferenceKind::WhitespaceAndCase;
  }
  result.changed_numbers = number_changes(a_utf8, b_utf8);
  if (result.difference == DifferenceKind::None && result.changed_numbers.empty() &&
      without_punctuation_or_space(a) == without_punctuation_or_space(b))
    result.difference = DifferenceKind::PunctuationOnly;
  return result;
}

}  // namespace lb::compare
