#include "generated_text.h"

#include <array>
#include <cstdio>
#include <string_view>
#include <vector>

#include "core/compare/code_point_text.h"

namespace lb::compare::testing {
namespace {

// Must equal VOCAB in scripts/gen_difflib_goldens.py.
constexpr std::array<std::string_view, 65> kVocab = {
    "the",      "model",      "output", "is",       "a",
    "of",       "and",        "to",     "in",       "for",
    "with",     "on",         "that",   "token",    "tokens",
    "latency",  "throughput", "GPU",    "FP8",      "BF16",
    "cache",    "prefix",     "decode", "prefill",  "request",
    "server",   "answer",     "42",     "3.14",     "1,725",
    "2024",     "-7",         "naïve",  "café",     "über",
    "Straße",   "日本語",     "中文",   "Привет",   "мир",
    "Ελληνικά", "عربى",       "🎉",      "👍🏽", "👨‍👩‍👧",
    "😀",        "e\u0301",    "x²",     "—",        "«quote»",
    "(",        ")",          ",",      ".",        ":",
    ";",        "{",          "}",      "\"key\"",  "def",
    "return",   "if",         "else",   "\t",       "\n"};

struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
};

constexpr std::string_view kLetters = "etaoinshrdlu";

std::string generated_word(SplitMix64& rng) {
  const uint64_t r = rng.next() % 10;
  std::string out;
  if (r < 6) {
    const uint64_t n = 2 + rng.next() % 7;
    for (uint64_t i = 0; i < n; ++i) out += kLetters[rng.next() % kLetters.size()];
  } else if (r < 9) {
    const uint64_t n = 1 + rng.next() % 3;
    std::u32string cps;
    for (uint64_t i = 0; i < n; ++i) cps += static_cast<char32_t>(0x4E00 + rng.next() % 8000);
    out = encode_utf8(cps);
  } else {
    out = kVocab[rng.next() % kVocab.size()];
  }
  return out;
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i) out += ' ';
    out += words[i];
  }
  return out;
}

}  // namespace

std::pair<std::string, std::string> generated_pair(uint64_t seed, int words,
                                                   int mutation_permille) {
  SplitMix64 rng{seed};
  std::vector<std::string> base;
  for (int i = 0; i < words; ++i) base.push_back(generated_word(rng));
  std::vector<std::string> other;
  for (const auto& w : base) {
    if (rng.next() % 1000 < static_cast<uint64_t>(mutation_permille)) {
      const uint64_t op = rng.next() % 3;
      if (op == 0) {
        other.push_back(generated_word(rng));
      } else if (op == 2) {
        other.push_back(w);
        other.push_back(generated_word(rng));
      }
    } else {
      other.push_back(w);
    }
  }
  return {join(base), join(other)};
}

std::string fnv1a64_hex(const std::string& text) {
  uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001B3ULL;
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(h));
  return buffer;
}

}  // namespace lb::compare::testing
