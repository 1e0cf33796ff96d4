#include "core/plan/synthetic_prompt.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace lb::plan {
namespace {

// splitmix64: tiny, well mixed, and identical on every platform (unlike std distributions).
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }

 private:
  uint64_t state_;
};

constexpr std::array<const char*, 120> kWords = {
    "the",       "system",   "measures", "latency",   "under",     "load",     "while",
    "engineers", "compare",  "results",  "across",    "several",   "servers",  "and",
    "record",    "every",    "number",   "with",      "care",      "a",        "river",
    "flows",     "past",     "old",      "mills",     "where",     "farmers",  "once",
    "ground",    "grain",    "into",     "flour",     "for",       "bread",    "market",
    "prices",    "rose",     "sharply",  "after",     "storms",    "damaged",  "bridges",
    "in",        "spring",   "students", "read",      "history",   "of",       "ancient",
    "trade",     "routes",   "that",     "linked",    "distant",   "cities",   "by",
    "sea",       "mountain", "weather",  "changes",   "quickly",   "so",       "climbers",
    "carry",     "extra",    "layers",   "water",     "maps",      "the",      "library",
    "opens",     "early",    "on",       "weekdays",  "visitors",  "borrow",   "books",
    "about",     "science",  "music",    "cooking",   "gardens",   "need",     "sunlight",
    "patience",  "good",     "soil",     "to",        "grow",      "tomatoes", "beans",
    "herbs",     "a",        "careful",  "review",    "found",     "small",    "errors",
    "table",     "reports",  "were",     "corrected", "before",    "release",  "teams",
    "plan",      "their",    "work",     "weekly",    "meetings",  "short",    "clear",
    "notes",     "help",     "everyone", "remember",  "decisions", "made",     "together",
    "finally"};

void append_sentence(SplitMix64& rng, std::string& out) {
  const size_t words = 5 + rng.below(10);
  for (size_t w = 0; w < words; ++w) {
    std::string word = kWords[rng.below(kWords.size())];
    if (w == 0) {
      word[0] = static_cast<char>(word[0] - 'a' + 'A');
    }
    out += word;
    if (w + 1 < words) {
      out += (rng.below(9) == 0) ? ", " : " ";
    }
  }
  out += ". ";
}

// At least `chars` characters of filler from `rng`, cut to exactly `chars`.
std::string filler(SplitMix64& rng, size_t chars) {
  std::string out;
  out.reserve(chars + 128);
  size_t sentences = 0;
  while (out.size() < chars) {
    append_sentence(rng, out);
    if (++sentences % 7 == 0) {
      out += "\n\n";
    }
  }
  out.resize(chars);
  return out;
}

uint64_t stream_seed(uint64_t seed, uint64_t stream) {
  SplitMix64 mix(seed ^ (stream * 0xD1B54A32D192ED03ULL));
  return mix.next();
}

constexpr uint64_t kSharedStream = 0xFFFFFFFFFFFFFFFFULL;

}  // namespace

int64_t estimate_prompt_tokens(std::string_view text) {
  return static_cast<int64_t>(std::ceil(static_cast<double>(text.size()) / kCharsPerToken));
}

std::string synthetic_prompt(const SyntheticPromptSpec& spec) {
  const int64_t target = std::max<int64_t>(1, spec.target_tokens);
  const auto total_chars = static_cast<size_t>(target * kCharsPerToken);
  const int64_t shared_tokens = std::clamp<int64_t>(spec.shared_prefix_tokens, 0, target);
  const auto shared_chars = static_cast<size_t>(shared_tokens * kCharsPerToken);

  std::string out;
  out.reserve(total_chars);
  if (shared_chars > 0) {
    SplitMix64 shared(stream_seed(spec.seed, kSharedStream));
    out = filler(shared, shared_chars);
  }
  if (out.size() < total_chars) {
    // The distinct part opens with the request index so two requests diverge at once.
    std::string own = "Request " + std::to_string(spec.index) + ". ";
    SplitMix64 rng(stream_seed(spec.seed, static_cast<uint64_t>(spec.index)));
    own += filler(rng, total_chars - out.size());
    own.resize(total_chars - out.size());
    out += own;
  }
  return out;
}

}  // namespace lb::plan
