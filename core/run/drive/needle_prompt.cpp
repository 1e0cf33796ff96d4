#include "core/run/drive/needle_prompt.h"

#include <algorithm>
#include <array>

#include "core/plan/synthetic_prompt.h"

namespace lb::run {
namespace {

constexpr std::array<const char*, 8> kThings = {"harbor code",   "vault word",   "garden number",
                                                "archive key",   "lantern name", "bridge signal",
                                                "orchard color", "station motto"};
constexpr std::array<const char*, 8> kWords = {"ORCHID",  "COBALT", "MAPLE", "TUNDRA",
                                               "SAFFRON", "QUARTZ", "HERON", "BASALT"};

uint64_t mix(uint64_t x) {  // SplitMix64 finaliser: same values on every platform
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace

std::string Needle::question() const {
  return "Question: according to the text above, what is the secret " + thing + "?";
}

Needle make_needle(uint64_t seed) {
  const uint64_t a = mix(seed), b = mix(a), c = mix(b);
  Needle n;
  n.thing = kThings[a % kThings.size()];
  n.value = std::string(kWords[b % kWords.size()]) + "-" + std::to_string(1000 + c % 9000);
  return n;
}

std::string needle_prompt(const Needle& needle, int64_t filler_tokens, uint64_t seed,
                          double depth) {
  plan::SyntheticPromptSpec spec;
  spec.target_tokens = std::max<int64_t>(1, filler_tokens);
  spec.seed = seed;
  std::string text = plan::synthetic_prompt(spec);
  // After the sentence that ends nearest the depth, so the fact is not cut into a word.
  size_t at = static_cast<size_t>(static_cast<double>(text.size()) * std::clamp(depth, 0.0, 1.0));
  const size_t stop = text.find(". ", at);
  at = stop == std::string::npos ? text.size() : stop + 2;
  text.insert(at, needle.sentence() + " ");
  text += "\n\n" + needle.question();
  return text;
}

bool needle_retrieved(const std::string& answer, const Needle& needle) {
  return answer.find(needle.value) != std::string::npos;
}

}  // namespace lb::run
