#pragma once
// Deterministic synthetic prompts of about N tokens for throughput runs: varied English-like
// filler (so tokenizers see ordinary text, not one repeated token) from a seeded generator that
// gives the same bytes on every platform. Prompts differ from their first words per request
// index, so a prefix cache cannot collapse them, unless a shared prefix is asked for.
#include <cstdint>
#include <string>
#include <string_view>

namespace lb::plan {

// Token estimate used to size prompts when no tokenizer is at hand: about 4 characters per token
// for English text with BPE tokenizers (GPT/Llama/Qwen families average 3.6-4.5).
inline constexpr double kCharsPerToken = 4.0;

// ceil(chars / 4).
int64_t estimate_prompt_tokens(std::string_view text);

struct SyntheticPromptSpec {
  int64_t target_tokens = 1024;
  uint64_t seed = 0;
  int64_t index = 0;  // request index: distinct prompts per index
  // The first shared_prefix_tokens (estimated) are identical for every index with the same seed;
  // 0 = nothing shared.
  int64_t shared_prefix_tokens = 0;
};

// A prompt whose estimate_prompt_tokens() is target_tokens (within one token).
std::string synthetic_prompt(const SyntheticPromptSpec& spec);

}  // namespace lb::plan
