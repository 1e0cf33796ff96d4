#include "tokenizer.h"

namespace lb::sim {
namespace {

enum class CharClass { Word, Space, OtherWhitespace, Punct };

CharClass classify(unsigned char c) {
  if (c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
      c == '_') {
    return CharClass::Word;
  }
  if (c == ' ') return CharClass::Space;
  if (c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
    return CharClass::OtherWhitespace;
  }
  return CharClass::Punct;
}

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Splits one run into pieces of <= kMaxPieceBytes, cutting only before a code point start so
// every streamed piece is valid UTF-8 on its own (when the input is).
void split_run(std::string_view run, std::vector<std::string_view>& out) {
  size_t pos = 0;
  while (pos < run.size()) {
    size_t len = std::min<size_t>(SimTokenizer::kMaxPieceBytes, run.size() - pos);
    size_t cut = len;
    while (cut > 1 && pos + cut < run.size() &&
           is_continuation(static_cast<unsigned char>(run[pos + cut]))) {
      --cut;
    }
    if (cut == 1 && len > 1 && pos + 1 < run.size() &&
        is_continuation(static_cast<unsigned char>(run[pos + 1]))) {
      cut = len;  // invalid or over-long sequence: keep the byte limit rather than loop
    }
    out.push_back(run.substr(pos, cut));
    pos += cut;
  }
}

}  // namespace

std::vector<std::string_view> SimTokenizer::pieces(std::string_view text) {
  std::vector<std::string_view> out;
  out.reserve(text.size() / 3 + 1);
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    CharClass cls = classify(c);
    size_t start = i;
    if (cls == CharClass::Space && i + 1 < text.size() &&
        classify(static_cast<unsigned char>(text[i + 1])) == CharClass::Word) {
      ++i;  // one space attaches to the following word, as in BPE vocabularies
      cls = CharClass::Word;
    }
    if (cls == CharClass::Punct) {
      out.push_back(text.substr(i, 1));
      ++i;
      continue;
    }
    const bool whitespace = cls != CharClass::Word;
    while (i < text.size()) {
      CharClass next = classify(static_cast<unsigned char>(text[i]));
      bool same = whitespace ? (next == CharClass::Space || next == CharClass::OtherWhitespace)
                             : next == CharClass::Word;
      if (!same) break;
      if (whitespace && next == CharClass::Space && i + 1 < text.size() &&
          classify(static_cast<unsigned char>(text[i + 1])) == CharClass::Word && i > start) {
        break;  // leave the last space for the word that follows
      }
      ++i;
    }
    split_run(text.substr(start, i - start), out);
  }
  return out;
}

TokenId SimTokenizer::piece_id(std::string_view piece) {
  TokenId id = 0;
  TokenId scale = 1;
  for (unsigned char c : piece) {
    id += (static_cast<TokenId>(c) + 1) * scale;
    scale *= 257;
  }
  return id;
}

void SimTokenizer::encode_append(std::string_view text, std::vector<TokenId>& out) {
  for (auto p : pieces(text)) out.push_back(piece_id(p));
}

std::vector<TokenId> SimTokenizer::encode(std::string_view text) {
  std::vector<TokenId> out;
  encode_append(text, out);
  return out;
}

int64_t SimTokenizer::count(std::string_view text) {
  return static_cast<int64_t>(pieces(text).size());
}

bool SimTokenizer::valid_id(TokenId id) {
  if (id >= kImStart && id <= kThinkEnd) return true;
  if (id <= 0) return false;
  int digits = 0;
  while (id > 0) {
    if (id % 257 == 0) return false;
    id /= 257;
    if (++digits > kMaxPieceBytes) return false;
  }
  return true;
}

std::string SimTokenizer::piece_text(TokenId id) {
  if (id == kImStart) return "<|im_start|>";
  if (id == kImEnd) return "<|im_end|>";
  if (id == kThinkStart) return "<think>";
  if (id == kThinkEnd) return "</think>";
  if (!valid_id(id)) return {};
  std::string out;
  while (id > 0) {
    out.push_back(static_cast<char>(id % 257 - 1));
    id /= 257;
  }
  return out;
}

std::string SimTokenizer::decode(const std::vector<TokenId>& ids) {
  std::string out;
  for (TokenId id : ids) out += piece_text(id);
  return out;
}

}  // namespace lb::sim
