#include "prompt_scoring.h"

#include <algorithm>

#include "text_filler.h"

namespace lb::sim {
namespace {

bool starts_with_ids(const std::vector<TokenId>& ids, size_t at, const std::vector<TokenId>& what) {
  return at + what.size() <= ids.size() && std::equal(what.begin(), what.end(), ids.begin() + at);
}

// The prompt token's pseudo-score: the same numbers the simulator has always echoed.
PromptTokenScore pseudo_score(const GenRequest& request, size_t i) {
  PromptTokenScore s;
  s.id = (*request.prompt_tokens)[i];
  s.text = SimTokenizer::piece_text(s.id);
  if (i == 0) return s;
  const uint64_t seed = fnv1a64(request.prompt_text);
  const double lp = -(0.2 + 3.0 * static_cast<double>(fnv1a64(s.text, seed + i) % 1000) / 1000);
  s.logprob = lp;
  s.rank = 1;
  s.top.push_back({s.text, s.id, lp});
  return s;
}

}  // namespace

std::optional<ForcedPrompt> split_forced_prompt(const std::vector<TokenId>& ids) {
  const auto last = std::find(ids.rbegin(), ids.rend(), SimTokenizer::kImStart);
  if (last == ids.rend()) return std::nullopt;
  const size_t header = static_cast<size_t>(ids.rend() - last) - 1;
  const std::vector<TokenId> assistant = SimTokenizer::encode("assistant\n");
  if (!starts_with_ids(ids, header + 1, assistant)) return std::nullopt;
  ForcedPrompt out;
  out.answer_begin = header + 1 + assistant.size();
  if (std::find(ids.begin() + static_cast<std::ptrdiff_t>(out.answer_begin), ids.end(),
                SimTokenizer::kImEnd) != ids.end())
    return std::nullopt;  // a finished turn: not an answer being scored
  // Each earlier segment: <|im_start|> role "\n" text <|im_end|> "\n".
  for (size_t i = 0; i < header;) {
    if (ids[i] != SimTokenizer::kImStart) return std::nullopt;
    const auto end =
        std::find(ids.begin() + static_cast<std::ptrdiff_t>(i), ids.end(), SimTokenizer::kImEnd);
    if (end == ids.end()) return std::nullopt;
    const size_t end_at = static_cast<size_t>(end - ids.begin());
    const std::string segment = SimTokenizer::decode(
        std::vector<TokenId>(ids.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                             ids.begin() + static_cast<std::ptrdiff_t>(end_at)));
    const size_t nl = segment.find('\n');
    if (nl == std::string::npos) return std::nullopt;
    out.messages.push_back({segment.substr(0, nl), segment.substr(nl + 1), false});
    i = end_at + 1;
    while (i < header && ids[i] != SimTokenizer::kImStart) ++i;  // the "\n" after <|im_end|>
  }
  if (out.messages.empty()) return std::nullopt;
  return out;
}

std::vector<PromptTokenScore> score_prompt(const GenRequest& request, const AnswerContext& context,
                                           int top_k) {
  const auto& ids = *request.prompt_tokens;
  std::vector<PromptTokenScore> out;
  out.reserve(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) out.push_back(pseudo_score(request, i));
  const auto forced = split_forced_prompt(ids);
  if (!forced || forced->answer_begin >= ids.size()) return out;
  // The chat as the lane answered it: its reference, variants and its own output.
  GenRequest chat;
  chat.endpoint = Endpoint::Chat;
  chat.messages = forced->messages;
  chat.prompt_tokens =
      std::make_shared<const std::vector<TokenId>>(render_chat(chat.messages, {}, true));
  chat.logprobs = true;
  AnswerContext actx = context;
  actx.variants = true;
  const AnswerPlan plan = AnswerBook::builtin().answer(chat, actx);
  const OutputScript script = make_script(plan, std::nullopt, 200);
  const std::string user = last_user_text(chat);
  const LogprobModel model(script, plan.reference, plan.near_tie_variant, plan.confident_variant,
                           fnv1a64(user), context.weights_dtype == "fp8");
  std::vector<std::string> answer;
  for (size_t i = forced->answer_begin; i < ids.size(); ++i)
    answer.push_back(SimTokenizer::piece_text(ids[i]));
  for (size_t c = 0; c < answer.size(); ++c) {
    const ForcedToken f = model.forced(answer, static_cast<int64_t>(c), top_k);
    PromptTokenScore& s = out[forced->answer_begin + c];
    s.logprob = f.token.logprob;
    s.rank = f.rank;
    s.top = f.top;
  }
  return out;
}

}  // namespace lb::sim
