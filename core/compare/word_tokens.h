#pragma once
// Word tokens for word-level diffs: a run of word characters, a run of whitespace, or any other
// single code point (punctuation, symbols, emoji). Concatenated, the tokens are the text.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace lb::compare {

struct WordToken {
  std::size_t begin = 0;  // code point index
  std::size_t end = 0;
};

std::vector<WordToken> tokenize_words(std::u32string_view text);

// Both texts' tokens as ids from one shared vocabulary (equal ids <=> equal token text), ready
// for SequenceMatcher<uint32_t>.
struct TokenizedPair {
  std::vector<WordToken> a_tokens;
  std::vector<WordToken> b_tokens;
  std::vector<uint32_t> a_ids;
  std::vector<uint32_t> b_ids;
};
TokenizedPair tokenize_pair(std::u32string_view a, std::u32string_view b);

}  // namespace lb::compare
