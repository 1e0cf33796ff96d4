#pragma once
// Logprobs on the wire as vLLM writes them: chat `logprobs.content[]` entries with token,
// logprob, bytes and top_logprobs; completions `logprobs` with text_offset, token_logprobs,
// tokens and top_logprobs ({token: logprob}); `echo` puts the prompt's tokens first (the very
// first with a null logprob). Spliced into the chunks wire_format.h builds ("logprobs":null).
#include <cstdint>
#include <string>
#include <vector>

#include "gen_request.h"
#include "logprob_model.h"
#include "prompt_scoring.h"

namespace lb::sim {

// {"content":[...]} for content tokens [begin, end); "null" when there are none.
std::string chat_logprobs_json(const LogprobModel& model, int64_t begin, int64_t end,
                               const GenRequest& request);
// text_offset starts at `offset_bytes`; `prompt` (echo) lists the prompt's tokens first, each
// top_logprobs entry holding the token itself and the lane's top-k (as vLLM's echo does).
std::string completion_logprobs_json(const LogprobModel& model, int64_t begin, int64_t end,
                                     int64_t offset_bytes, const GenRequest& request,
                                     const std::vector<PromptTokenScore>* prompt);
// vLLM's choice.prompt_logprobs: null for the first token, then per token
// {"<id>": {"logprob", "rank", "decoded_token"}} for the token itself and the top-k.
// Ids are the tokenizer's plus `token_id_offset` (the lane's vocabulary).
std::string prompt_logprobs_json(const std::vector<PromptTokenScore>& prompt,
                                 int64_t token_id_offset = 0);
// Replaces the first "prompt_logprobs":null of a body.
void splice_prompt_logprobs(std::string& body, const std::string& prompt_logprobs_json);
// Replaces the first "logprobs":null of a chunk or body.
void splice_logprobs(std::string& chunk, const std::string& logprobs_json);

}  // namespace lb::sim
