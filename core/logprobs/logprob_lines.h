#pragma once
// logprobs/<lane>.jsonl in a run folder: one line per prompt, in prompt order.
//   {"i":0,"id":"math-percentage","status":"ok","k":5,"t":[TOKEN,...]}
// TOKEN = [text, logprob, [[text, logprob(, id)], ...](, id(, flags))]
//   text     a JSON string when the bytes are valid UTF-8, else {"x":"<hex bytes>"}
//   logprob  nats rounded to 4 decimals; null when missing or not finite (flags say which)
//   id       the server's token id; omitted (or -1 when flags follow) when it gave none
//   flags    token_logprobs.h TokenFlag bits; omitted when 0
// status: "ok"; "unsupported" (the server answered without logprobs, or refused them: see note);
// "failed" (the request failed: note holds the error); "not_run".
// About 25 bytes per listed alternative, so with top-5 a token takes 130-180 bytes.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/logprobs/token_logprobs.h"

namespace lb::logprobs {

struct PromptLogprobs {
  int64_t index = -1;
  std::string prompt_id;
  std::string status = "ok";
  std::string note;  // why unsupported / failed
  int top_k = 0;     // alternatives asked for
  TokenSeries tokens;
};

// A token's bytes as JSON: a string when valid UTF-8, else {"x":"<hex>"}.
nlohmann::json token_text_json(const std::string& bytes);
std::string to_line(const PromptLogprobs& p);  // without the newline
// Parses one line; on failure returns nullopt and says why in `error`.
std::optional<PromptLogprobs> parse_line(std::string_view line, std::string& error);
// Every non-empty line of a file; stops at the first bad line with `error` naming it.
std::vector<PromptLogprobs> parse_lines(std::string_view text, std::string& error);

}  // namespace lb::logprobs
