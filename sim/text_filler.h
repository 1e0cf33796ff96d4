#pragma once
// Deterministic English-like text for prompts without a reference answer, and the reasoning
// text of reasoning requests. Same seed, same text, on every platform (no std:: distributions).
#include <cstdint>
#include <string>
#include <string_view>

namespace lb::sim {

uint64_t fnv1a64(std::string_view text, uint64_t seed = 0);

// About `tokens` tokens of sentences (at least that many).
std::string filler_text(uint64_t seed, int64_t tokens);
// Reasoning that opens on the question and continues with plausible deliberation.
std::string reasoning_text(uint64_t seed, std::string_view question, int64_t tokens);
// FP8 wording drift: swaps a few words for near-synonyms after the first sentence.
std::string drift_wording(std::string_view text, uint64_t seed);

}  // namespace lb::sim
