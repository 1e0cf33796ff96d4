#include "core/compare/similarity.h"

#include "core/compare/code_point_text.h"
#include "core/compare/word_tokens.h"

namespace lb::compare {

CharMatcher char_matcher(std::string_view a_utf8, std::string_view b_utf8, bool autojunk) {
  std::u32string a = decode_utf8(a_utf8);
  std::u32string b = decode_utf8(b_utf8);
  return CharMatcher(std::vector<char32_t>(a.begin(), a.end()),
                     std::vector<char32_t>(b.begin(), b.end()), nullptr, autojunk);
}

double similarity_ratio(std::string_view a_utf8, std::string_view b_utf8) {
  if (a_utf8 == b_utf8) return 1.0;  // difflib gives 1.0 for equal sequences too
  return char_matcher(a_utf8, b_utf8).ratio();
}

TokenMatcher word_matcher(std::string_view a_utf8, std::string_view b_utf8, bool autojunk) {
  TokenizedPair pair = tokenize_pair(decode_utf8(a_utf8), decode_utf8(b_utf8));
  return TokenMatcher(std::move(pair.a_ids), std::move(pair.b_ids), nullptr, autojunk);
}

}  // namespace lb::compare
