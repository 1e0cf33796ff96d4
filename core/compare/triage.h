#pragma once
// First two stages of the per-prompt regression check: exact equality settles a pair; otherwise
// the difflib ratio sorts near-identical wording drift from real divergence. Differences that are
// only whitespace, only letter case or only punctuation are labelled, and numbers that changed
// are named.
#include <string>
#include <string_view>
#include <vector>

namespace lb::compare {

enum class TriageClass { Identical, NearIdentical, Divergent };
const char* triage_name(TriageClass triage);  // "identical", "near_identical", "divergent"
bool triage_from_name(std::string_view name, TriageClass& out);

constexpr double kDefaultNearIdenticalThreshold = 0.95;
constexpr std::size_t kMaxListedNumberChanges = 20;

// A number that differs between the outputs, in output order. `before` is empty for a number only
// B has, `after` empty for one only A has.
struct NumberChange {
  std::string before;
  std::string after;
  std::string label() const;  // "42 → 24", "42 removed", "24 added"
};

// What kind of difference a non-identical pair has, when it is a harmless kind.
enum class DifferenceKind {
  None,               // identical, or a difference of substance
  WhitespaceOnly,     // equal once all whitespace is removed
  CaseOnly,           // equal once lower-cased
  WhitespaceAndCase,  // equal once both are done
  // Equal once sentence punctuation (. , ; : ! ? quotes, brackets, dashes, ellipses, in ASCII
  // and Unicode) and whitespace are removed, with no number changed: "Paris." against "Paris".
  // A hyphen-minus counts as a character, as "-5" is not "5".
  PunctuationOnly,
};
const char* difference_kind_name(DifferenceKind kind);  // "", "whitespace_only", ...

struct TriageResult {
  TriageClass triage = TriageClass::Identical;
  double ratio = 1.0;  // difflib-compatible, character mode
  DifferenceKind difference = DifferenceKind::None;
  std::vector<NumberChange> changed_numbers;  // at most kMaxListedNumberChanges
  // difference_kind_name() as a list (empty when None), for printing and review.json.
  std::vector<std::string> labels() const;
};

// near_identical_threshold: ratio at or above which a non-identical pair is near-identical.
TriageResult triage_pair(std::string_view a_utf8, std::string_view b_utf8,
                         double near_identical_threshold = kDefaultNearIdenticalThreshold);

}  // namespace lb::compare
