// The logprob readers (logprobs/wire_logprobs.h), the run-folder line format and the divergence
// analysis on arbitrary bytes. Byte 0 picks the wire shape and the top-K asked for; the rest is
// one JSON message (bare NaN/Infinity quoted first, as the stream parser does). Invariants: no
// reader throws; every token written to a line reads back with the same bytes, id and flags;
// the analysis of the series against itself and a shortened copy never throws; the block-at-a-time
// search for a container's end agrees with the byte-at-a-time one.
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "core/compare/token_divergence.h"
#include "core/logprobs/json_skip.h"
#include "core/logprobs/logprob_lines.h"
#include "core/logprobs/wire_logprobs.h"
#include "split_input.h"

namespace {

namespace lp = lb::logprobs;

void read(uint8_t shape, const nlohmann::json& j, lp::TokenSeries& out) {
  switch (shape % 7) {
    case 0:
      lp::append_openai_chat(j, out);
      break;
    case 1:
      lp::append_openai_completions(j, out);
      break;
    case 2:
      lp::append_llamacpp(j, out);
      break;
    case 3:
      lp::append_ollama(j, out);
      break;
    case 4:
      lp::append_tgi_details(j, out);
      break;
    case 5: {
      // vLLM's prompt_logprobs, read by ids sent: one per entry, and some the entries lack.
      std::vector<int64_t> ids;
      for (size_t i = 0; i < (j.is_array() ? j.size() + 2 : 3); ++i)
        ids.push_back(static_cast<int64_t>(i * 7919));
      lp::append_vllm_prompt_logprobs(j, ids, shape >> 3, out);
      break;
    }
    default:
      lp::append_tgi_token(
          j, j.is_object() && j.contains("top_tokens") ? &j["top_tokens"] : nullptr, out);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  for (size_t i = 0; i < text.size() && i < 4; ++i) {
    if (text[i] != '{' && text[i] != '[') continue;
    if (lp::skip_container(text, i) != lp::skip_container_bytewise(text, i))
      lb::fuzz::invariant_failed("skip_container disagrees with the bytewise scan");
  }
  nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (std::string quoted; j.is_discarded() && lp::quote_nonfinite_literals(text, quoted))
    j = nlohmann::json::parse(quoted, nullptr, false);
  if (j.is_discarded()) {
    std::string error;
    (void)lp::parse_lines(text, error);  // the stored format is read from disk too
    return 0;
  }
  lp::PromptLogprobs p;
  p.index = 0;
  p.top_k = data[0] >> 3;
  read(data[0], j, p.tokens);
  lp::normalize(p.tokens, p.top_k);
  std::string error;
  const auto back = lp::parse_line(lp::to_line(p), error);
  if (!back) lb::fuzz::invariant_failed(("a written line does not read back: " + error).c_str());
  if (back->tokens.size() != p.tokens.size())
    lb::fuzz::invariant_failed("a written line lost tokens");
  for (size_t i = 0; i < p.tokens.size(); ++i) {
    const auto& a = p.tokens[i];
    const auto& b = back->tokens[i];
    if (a.token != b.token || a.id != b.id || a.flags != b.flags || a.top.size() != b.top.size())
      lb::fuzz::invariant_failed("a token changed on its way through the line format");
    if (std::isfinite(a.logprob) != std::isfinite(b.logprob))
      lb::fuzz::invariant_failed("a logprob's finiteness changed in the line format");
  }
  lp::PromptLogprobs shorter = *back;
  if (!shorter.tokens.empty()) shorter.tokens.pop_back();
  (void)lb::compare::analyse_token_divergence(&p, &shorter, "a", "b", {0.5, p.top_k});
  (void)lb::compare::analyse_token_divergence(&p, &*back, "a", "b", {0.5, p.top_k});
  return 0;
}
