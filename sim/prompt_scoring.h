#pragma once
// Scores of a completions prompt's own tokens, as vLLM returns them with `echo` + `logprobs` or
// with `prompt_logprobs`. A prompt given as token ids that ends in the chat template's assistant
// header followed by answer tokens is read as teacher forcing: those answer tokens are scored
// under this lane's logprob model for the chat before them, exactly as the lane would score
// them while generating (cross-scoring one lane's output under another). Every other prompt
// token gets a deterministic pseudo-score; the first has no context, so no logprob.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "answer_book.h"
#include "gen_request.h"
#include "logprob_model.h"

namespace lb::sim {

struct PromptTokenScore {
  TokenId id = 0;
  std::string text;
  std::optional<double> logprob;  // nats; none for the first token
  int rank = 0;                   // 1-based rank of the token among the lane's alternatives
  std::vector<TokenChoice> top;   // the lane's top-k there, best first
};

// A token-id prompt cut at its last assistant header: the chat before it and the answer after.
struct ForcedPrompt {
  std::vector<ChatMessage> messages;
  size_t answer_begin = 0;  // index of the first answer token in the prompt
};
std::optional<ForcedPrompt> split_forced_prompt(const std::vector<TokenId>& ids);

// One score per prompt token. `context` says which lane is scoring (dtype, flip_facts, seed).
std::vector<PromptTokenScore> score_prompt(const GenRequest& request, const AnswerContext& context,
                                           int top_k);

}  // namespace lb::sim
