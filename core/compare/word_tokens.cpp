#include "core/compare/word_tokens.h"

#include <unordered_map>

#include "core/compare/char_classes.h"

namespace lb::compare {
namespace {

enum class TokenClass { Word, Space, Other };

TokenClass classify(char32_t cp) {
  if (is_space(cp)) return TokenClass::Space;
  if (is_word_char(cp)) return TokenClass::Word;
  return TokenClass::Other;
}

std::vector<uint32_t> intern(std::u32string_view text, const std::vector<WordToken>& tokens,
                             std::unordered_map<std::u32string_view, uint32_t>& vocabulary) {
  std::vector<uint32_t> ids;
  ids.reserve(tokens.size());
  for (const auto& t : tokens) {
    auto [it, inserted] = vocabulary.try_emplace(text.substr(t.begin, t.end - t.begin),
                                                 static_cast<uint32_t>(vocabulary.size()));
    ids.push_back(it->second);
  }
  return ids;
}

}  // namespace

std::vector<WordToken> tokenize_words(std::u32string_view text) {
  std::vector<WordToken> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    const TokenClass cls = classify(text[i]);
    std::size_t end = i + 1;
    if (cls != TokenClass::Other) {
      while (end < text.size() && classify(text[end]) == cls) ++end;
    }
    tokens.push_back({i, end});
    i = end;
  }
  return tokens;
}

TokenizedPair tokenize_pair(std::u32string_view a, std::u32string_view b) {
  TokenizedPair out;
  out.a_tokens = tokenize_words(a);
  out.b_tokens = tokenize_words(b);
  std::unordered_map<std::u32string_view, uint32_t> vocabulary;
  out.a_ids = intern(a, out.a_tokens, vocabulary);
  out.b_ids = intern(b, out.b_tokens, vocabulary);
  return out;
}

}  // namespace lb::compare
