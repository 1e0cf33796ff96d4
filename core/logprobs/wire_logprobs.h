#pragma once
// Readers for every wire shape servers use for per-token logprobs. Each appends to a series and
// never throws: a value that is missing, null, NaN/inf (or a string standing for one) or not a
// number is kept with a flag (token_logprobs.h), so one odd token never loses the rest.
//  - OpenAI chat (vLLM, SGLang, llama.cpp, Ollama /v1): choice.logprobs.content[] of
//    {token, logprob, bytes, top_logprobs[]}; llama.cpp adds "id"; vLLM's
//    return_tokens_as_token_ids sends "token_id:123" as the token (the text is then in bytes)
//  - OpenAI completions: choice.logprobs {tokens[], token_logprobs[], top_logprobs[{tok: lp}]}
//  - llama.cpp /completion: completion_probabilities[] of {id, token, bytes, logprob,
//    top_logprobs[]}, or the older {content, probs[{tok_str, prob}]} (probabilities, not logs)
//  - Ollama /api/chat and /api/generate: logprobs[] of {token, logprob, bytes, top_logprobs[]}
//  - TGI: streamed token {id, text, logprob, special} with top_tokens[]; details.tokens[] and
//    details.top_tokens[][] on the non-streamed answer
//  - vLLM's prompt_logprobs (completions): choice.prompt_logprobs[], one per prompt token, null
//    for the first, else {"<id>": {logprob, rank, decoded_token}} holding the prompt's own token
//    and the top-K there
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/logprobs/token_logprobs.h"

namespace lb::logprobs {

void append_openai_chat(const nlohmann::json& choice_logprobs, TokenSeries& out);
void append_openai_completions(const nlohmann::json& choice_logprobs, TokenSeries& out);
void append_llamacpp(const nlohmann::json& completion_probabilities, TokenSeries& out);
void append_ollama(const nlohmann::json& logprobs, TokenSeries& out);
void append_tgi_token(const nlohmann::json& token, const nlohmann::json* top_tokens,
                      TokenSeries& out);
void append_tgi_details(const nlohmann::json& details, TokenSeries& out);
// vLLM's prompt_logprobs of a prompt sent as `prompt_ids`: position i's token is prompt_ids[i],
// its logprob the entry under that id (a position without one is flagged), its alternatives the
// entries of rank 1 to `top_k`.
void append_vllm_prompt_logprobs(const nlohmann::json& prompt_logprobs,
                                 const std::vector<int64_t>& prompt_ids, int top_k,
                                 TokenSeries& out);

// Python's json module writes NaN, Infinity and -Infinity bare, which is not JSON. This quotes
// them (outside strings) so the message parses and the values reach the readers as strings that
// are flagged. Returns false when there was nothing to quote.
bool quote_nonfinite_literals(std::string_view in, std::string& out);

}  // namespace lb::logprobs
