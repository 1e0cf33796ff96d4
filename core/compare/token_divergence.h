#pragma once
// Where and why two lanes' greedy outputs part, from their per-token logprobs.
// The sequences are aligned by token id when both lanes gave ids for every token, otherwise by
// token bytes. At the first token that differs:
//  - near_tie: each lane's token is in the other lane's top-K, and the baseline's top-1/top-2
//    margin there is at most near_tie_margin_nats (benign numeric drift);
//  - confident_change: anything else at a real token difference;
//  - length_change: one lane stopped where the other went on (servers do not report the
//    end-of-sequence token's logprob, so no margin can be given);
//  - tokenizer_mismatch: the lanes cut the same text into different tokens, or give one id
//    different bytes, or their tokenizers are known to differ (core/run/lanes/tokenizer_match.h):
//    token positions cannot be compared, so the texts are (the character where they part is given);
//  - no_logprobs: a lane has no logprobs for the prompt, or unusable ones at the divergence.
// Identical texts are `identical` whatever the logprobs say.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/logprobs/logprob_lines.h"

namespace lb::compare {

enum class DivergenceClass {
  Identical,
  NearTie,
  ConfidentChange,
  LengthChange,
  TokenizerMismatch,
  NoLogprobs
};
const char* to_string(DivergenceClass c);

struct DivergenceThresholds {
  double near_tie_margin_nats = 0.5;  // τ: baseline top-1 minus top-2 logprob
  int top_k = 0;                      // alternatives asked for (recorded with the result)
};

struct TokenDivergence {
  int64_t prompt_index = -1;
  std::string prompt_id;
  DivergenceClass cls = DivergenceClass::NoLogprobs;
  std::string reason;        // plain words: why this class
  std::string aligned_by;    // "ids", "bytes", "text" (tokenizers differ) or "" (not aligned)
  int64_t token_index = -1;  // first divergent token (0-based), -1 when none
  int64_t char_offset_a = -1, char_offset_b = -1;  // code points before it in each text
  std::string token_a, token_b;                    // "" where a lane had stopped
  std::optional<double> logprob_a, logprob_b;      // each lane's own token, nats
  std::optional<double> a_logprob_of_b;        // the baseline's logprob for the candidate's token
  std::optional<double> b_logprob_of_a;        // the candidate's logprob for the baseline's token
  std::optional<double> baseline_margin_nats;  // baseline top-1 minus top-2 there
  // Each lane's top-K at the divergence (best first), for the report's tables.
  std::vector<logprobs::Alternative> top_a, top_b;
};

// a = baseline, b = candidate; a null pointer = no logprobs recorded for that lane.
// `tokenizers_differ` (non-empty: why the lanes' tokenizers are known to differ) makes every
// non-identical pair tokenizer_mismatch, compared by text.
TokenDivergence analyse_token_divergence(const logprobs::PromptLogprobs* a,
                                         const logprobs::PromptLogprobs* b,
                                         const std::string& text_a, const std::string& text_b,
                                         const DivergenceThresholds& thresholds,
                                         const std::string& tokenizers_differ = {});

nlohmann::json to_json(const TokenDivergence& d);
// {"thresholds":{...},"counts":{"identical":n,...},"pairs":[...]}
nlohmann::json divergence_report(const std::vector<TokenDivergence>& pairs,
                                 const DivergenceThresholds& thresholds);
// Counts of each class, for summaries.
nlohmann::json divergence_counts(const std::vector<TokenDivergence>& pairs);

}  // namespace lb::compare
