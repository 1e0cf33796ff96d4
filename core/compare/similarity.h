#pragma once
// The comparisons the regression check runs, in the two element kinds it needs: code points
// (what `difflib.SequenceMatcher(None, a, b).ratio()` compares on Python str) and word tokens.
#include <string_view>

#include "core/compare/sequence_matcher.h"

namespace lb::compare {

using CharMatcher = SequenceMatcher<char32_t>;
using TokenMatcher = SequenceMatcher<uint32_t>;

// Character mode over the UTF-8 texts' code points; autojunk on, no junk predicate.
CharMatcher char_matcher(std::string_view a_utf8, std::string_view b_utf8, bool autojunk = true);
// The exact double Python prints for SequenceMatcher(None, a, b).ratio().
double similarity_ratio(std::string_view a_utf8, std::string_view b_utf8);
// Word-token mode (see word_tokens.h); used for highlighting.
TokenMatcher word_matcher(std::string_view a_utf8, std::string_view b_utf8, bool autojunk = true);

}  // namespace lb::compare
