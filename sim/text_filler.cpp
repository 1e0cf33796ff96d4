#include "text_filler.h"

#include <array>
#include <vector>

#include "tokenizer.h"

namespace lb::sim {
namespace {

constexpr std::array<std::string_view, 48> kWords = {
    "the",     "system",  "request", "model",   "serving", "latency", "throughput", "cache",
    "prefix",  "token",   "batch",   "memory",  "context", "decode",  "prefill",    "quality",
    "result",  "measure", "engine",  "lane",    "server",  "stream",  "response",   "value",
    "careful", "stable",  "faster",  "slower",  "same",    "larger",  "smaller",    "each",
    "runs",    "keeps",   "shows",   "returns", "carries", "reaches", "moves",      "holds",
    "with",    "across",  "before",  "after",   "under",   "through", "because",    "while"};

constexpr std::array<std::string_view, 12> kThoughts = {
    "Let me think about what is being asked.",
    "I should check the numbers again.",
    "First, identify the key facts in the question.",
    "That seems consistent so far.",
    "Wait, let me double-check that step.",
    "The answer should be short and direct.",
    "Another way to see it is to work backwards.",
    "I need to keep the reasoning separate from the final answer.",
    "Each part of the question maps to one fact.",
    "So the result follows from the previous step.",
    "Nothing in the prompt contradicts this.",
    "Let me make sure the format matches the request."};

struct Rng {
  uint64_t state;
  uint64_t next() {
    state += 0x9e3779b97f4a7c15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }
};

std::string sentence(Rng& rng) {
  std::string s;
  const size_t words = 7 + rng.below(9);
  for (size_t i = 0; i < words; ++i) {
    std::string w(kWords[rng.below(kWords.size())]);
    if (i == 0) w[0] = static_cast<char>(w[0] - 'a' + 'A');
    if (i > 0) s += ' ';
    s += w;
  }
  return s + ".";
}

}  // namespace

uint64_t fnv1a64(std::string_view text, uint64_t seed) {
  uint64_t h = 0xcbf29ce484222325ULL ^ seed;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string filler_text(uint64_t seed, int64_t tokens) {
  Rng rng{seed};
  std::string out;
  int64_t count = 0;
  while (count < tokens) {
    std::string s = (out.empty() ? "" : " ") + sentence(rng);
    count += SimTokenizer::count(s);
    out += s;
  }
  return out;
}

std::string reasoning_text(uint64_t seed, std::string_view question, int64_t tokens) {
  Rng rng{seed ^ 0x5bd1e995ULL};
  std::string head(question.substr(0, std::min<size_t>(question.size(), 80)));
  for (char& c : head) {
    if (c == '\n') c = ' ';
  }
  std::string out = "Okay, the user asks: \"" + head + "\".";
  int64_t count = SimTokenizer::count(out);
  while (count < tokens) {
    std::string s = " " + std::string(kThoughts[rng.below(kThoughts.size())]);
    count += SimTokenizer::count(s);
    out += s;
  }
  return out;
}

std::string drift_wording(std::string_view text, uint64_t seed) {
  static const std::vector<std::pair<std::string_view, std::string_view>> kSwaps = {
      {" faster", " quicker"},     {" larger", " bigger"},    {" shows", " displays"},
      {" holds", " keeps"},        {" careful", " cautious"}, {" because", " since"},
      {" returns", " gives back"}, {" same", " identical"}};
  std::string out(text);
  const size_t start = out.find(". ");
  if (start == std::string::npos) return out;
  size_t applied = 0;
  for (size_t i = 0; i < kSwaps.size() && applied < 3; ++i) {
    const auto& [from, to] = kSwaps[(i + seed) % kSwaps.size()];
    size_t pos = out.find(from, start);
    if (pos == std::string::npos) continue;
    out.replace(pos, from.size(), to);
    ++applied;
  }
  return out;
}

}  // namespace lb::sim
