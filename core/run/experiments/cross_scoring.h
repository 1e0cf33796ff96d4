#pragma once
// Teacher-forced cross-scoring over HTTP, as vLLM allows it: the chat prompt is tokenized by the
// scoring lane's POST /tokenize (messages, add_generation_prompt), the other lane's answer ids
// are appended, and POST /v1/completions with `echo` and `logprobs` (max_tokens 1) returns the
// scorer's logprob and top-K at every prompt position; the answer's positions are kept. A server
// that refuses echo with logprobs is asked for vLLM's `prompt_logprobs` instead, and keeps being
// asked that way. A server without /tokenize, or one that refuses token-id prompts or both ways
// of scoring them, makes the direction "unsupported" with the reason, and no further requests
// are sent to it. Lanes whose tokenizers differ are not cross-scored at all: one lane's token
// ids mean nothing to the other.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/compare/cross_score.h"
#include "core/logprobs/token_logprobs.h"
#include "core/net/stream_client.h"
#include "core/plan/prompt_set.h"
#include "core/run/experiments/experiment.h"
#include "core/run/experiments/regression_experiment.h"

namespace lb::run {

// How the scorer's logprobs of a given prompt are asked for: /v1/completions with `echo` and
// `logprobs`, or with vLLM's `prompt_logprobs`.
enum class ScoringMethod { Echo, PromptLogprobs };
const char* to_string(ScoringMethod method);  // "echo", "prompt_logprobs"

struct ForcedAnswer {
  std::string status = "ok";  // "ok", "unsupported" (the server cannot), "failed" (this request)
  std::string reason;
  logprobs::TokenSeries tokens;                // the scorer's logprobs at each answer token
  ScoringMethod method = ScoringMethod::Echo;  // the way that answered (or was tried last)
};

// Tries `first`, and prompt_logprobs when echo is refused.
ForcedAnswer score_answer(net::StreamClient& client, const LaneEndpoint& lane, ServerKind kind,
                          const std::vector<plan::ChatMessage>& messages,
                          const std::vector<int64_t>& answer_ids, int top_k,
                          ScoringMethod first = ScoringMethod::Echo);

struct PairCrossScores {
  compare::CrossScore candidate_under_baseline;  // the candidate's answers read by the baseline
  compare::CrossScore baseline_under_candidate;
  // How each direction's scorer was asked ("echo" / "prompt_logprobs"; "" when never asked).
  std::string candidate_under_baseline_method, baseline_under_candidate_method;
  std::vector<nlohmann::json> per_prompt;  // per prompt: both directions, or why not scored
};

// Both directions for every prompt, one request pair at a time; stops early when the run does.
// `tokenizers_differ` (non-empty: why) makes both directions unsupported without a request.
PairCrossScores cross_score_pair(ExperimentContext& ctx, const plan::PromptSet& set,
                                 const LaneRuntime& base, const LaneTexts& base_texts,
                                 const LaneRuntime& cand, const LaneTexts& cand_texts, int top_k,
                                 const std::string& tokenizers_differ = "");

// Both totals (each with its "scored_with" method) and the tail rule.
nlohmann::json to_json(const PairCrossScores& s);

}  // namespace lb::run
