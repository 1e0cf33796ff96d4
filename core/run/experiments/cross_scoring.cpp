#include "core/run/experiments/cross_scoring.h"

#include "core/logprobs/wire_logprobs.h"
#include "core/net/secret_text.h"

namespace lb::run {
namespace {

using nlohmann::json;

net::StreamResult post(net::StreamClient& client, const LaneEndpoint& lane, std::string url,
                       const json& body) {
  auto req = lane.make_request(std::move(url), "POST");
  req.stream = false;
  req.dialect = net::Dialect::PlainText;
  req.body = std::make_shared<const std::string>(
      body.dump(-1, ' ', false, json::error_handler_t::replace));
  req.timeouts.total_ms = 120'000;
  return client.fetch(std::move(req));
}

bool missing_route(int status) { return status == 404 || status == 405 || status == 501; }

// The status and the server's own message, which may quote the key it refused: redacted, as
// the reason goes into tokens.json and the summary.
std::string http_problem(const net::StreamResult& r, const LaneEndpoint& lane) {
  std::string msg = net::redact_secret_text(r.error_message.substr(0, 200), {api_key_of(lane)});
  return "HTTP " + std::to_string(r.http_status) + (msg.empty() ? "" : ": " + msg);
}

ForcedAnswer unsupported(std::string reason) { return {"unsupported", std::move(reason), {}}; }
ForcedAnswer failed(std::string reason) { return {"failed", std::move(reason), {}}; }

}  // namespace

const char* to_string(ScoringMethod method) {
  return method == ScoringMethod::Echo ? "echo" : "prompt_logprobs";
}

namespace {

// The scorer's logprobs at every position of `prompt`, asked for one way; `scored` holds one
// entry per prompt token on success.
ForcedAnswer ask_scores(net::StreamClient& client, const LaneEndpoint& lane, ServerKind kind,
                        const json& prompt, int top_k, ScoringMethod method,
                        logprobs::TokenSeries& scored) {
  json body = {{"model", lane.model}, {"prompt", prompt}, {"max_tokens", 1}, {"temperature", 0}};
  const bool echo = method == ScoringMethod::Echo;
  if (echo) {
    body["echo"] = true;
    body["logprobs"] = top_k;
    if (kind == ServerKind::Vllm || kind == ServerKind::LanebenchSim)
      body["return_tokens_as_token_ids"] = true;
  } else {
    body["prompt_logprobs"] = top_k;
  }
  const std::string asked = echo ? "echo and logprobs" : "prompt_logprobs";
  auto r = post(client, lane, lane.api_url("/completions"), body);
  if (r.http_status != 0 && missing_route(r.http_status))
    return unsupported("the server has no /v1/completions (" + http_problem(r, lane) + ")");
  if (r.http_status == 400)
    return unsupported("/v1/completions refused a token-id prompt with " + asked + " (" +
                       http_problem(r, lane) + ")");
  if (r.error != net::ErrorKind::None || r.http_status != 200)
    return failed("/v1/completions: " + std::string(net::to_string(r.error)) + " " +
                  http_problem(r, lane));
  std::string text = r.body, quoted;
  if (logprobs::quote_nonfinite_literals(text, quoted)) text = std::move(quoted);
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("choices") || !j["choices"].is_array() ||
      j["choices"].empty() || !j["choices"][0].is_object())
    return failed("/v1/completions answered without choices");
  const json& choice = j["choices"][0];
  const char* field = echo ? "logprobs" : "prompt_logprobs";
  if (!choice.contains(field) || !(echo ? choice[field].is_object() : choice[field].is_array()))
    return unsupported("/v1/completions answered " + asked + " without " + field);
  if (echo) {
    logprobs::append_openai_completions(choice["logprobs"], scored);
  } else {
    std::vector<int64_t> ids;
    for (const auto& id : prompt) ids.push_back(id.get<int64_t>());
    logprobs::append_vllm_prompt_logprobs(choice["prompt_logprobs"], ids, top_k, scored);
  }
  if (scored.size() < prompt.size())
    return unsupported(std::string(field) + " listed " + std::to_string(scored.size()) +
                       " token(s) for a prompt of " + std::to_string(prompt.size()) +
                       ": the server does not score the prompt");
  return {};
}

}  // namespace

ForcedAnswer score_answer(net::StreamClient& client, const LaneEndpoint& lane, ServerKind kind,
                          const std::vector<plan::ChatMessage>& messages,
                          const std::vector<int64_t>& answer_ids, int top_k, ScoringMethod first) {
  json msgs = json::array();
  for (const auto& m : messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
  auto t = post(client, lane, lane.root_url("/tokenize"),
                {{"model", lane.model}, {"messages", msgs}, {"add_generation_prompt", true}});
  if (t.http_status != 0 && missing_route(t.http_status))
    return unsupported("the server has no /tokenize for chat messages (" + http_problem(t, lane) +
                       ")");
  if (t.error != net::ErrorKind::None || t.http_status != 200)
    return t.http_status == 400
               ? unsupported("/tokenize refused the chat messages (" + http_problem(t, lane) + ")")
               : failed("/tokenize: " + std::string(net::to_string(t.error)) + " " +
                        http_problem(t, lane));
  const json tok = json::parse(t.body, nullptr, false);
  if (!tok.is_object() || !tok.contains("tokens") || !tok["tokens"].is_array())
    return unsupported("/tokenize answered without a token list");
  json prompt = tok["tokens"];
  for (const auto& id : prompt)
    if (!id.is_number_integer()) return unsupported("/tokenize answered ids that are not integers");
  const size_t prompt_len = prompt.size();
  for (int64_t id : answer_ids) prompt.push_back(id);
  logprobs::TokenSeries all;
  ForcedAnswer out = ask_scores(client, lane, kind, prompt, top_k, first, all);
  out.method = first;
  if (out.status == "unsupported" && first == ScoringMethod::Echo) {
    // vLLM builds and servers that refuse echo with logprobs may still give prompt_logprobs.
    all.clear();
    ForcedAnswer second =
        ask_scores(client, lane, kind, prompt, top_k, ScoringMethod::PromptLogprobs, all);
    second.method = ScoringMethod::PromptLogprobs;
    if (second.status == "unsupported") second.reason = out.reason + "; " + second.reason;
    out = std::move(second);
  }
  if (out.status != "ok") return out;
  out.tokens.assign(all.begin() + static_cast<std::ptrdiff_t>(prompt_len),
                    all.begin() + static_cast<std::ptrdiff_t>(prompt_len + answer_ids.size()));
  // vLLM's echo lists the token itself beside its top-K: keep the K best.
  logprobs::normalize(out.tokens, top_k);
  for (auto& tkn : out.tokens)
    if (static_cast<int>(tkn.top.size()) > top_k) tkn.top.resize(static_cast<size_t>(top_k));
  return out;
}

namespace {

// One direction: `producer`'s answers read by `scorer`.
struct Direction {
  const LaneRuntime& scorer;
  const LaneTexts& producer_texts;
  compare::CrossScoreAccumulator total;
  std::string status = "ok", reason;
  ScoringMethod method = ScoringMethod::Echo;  // once echo is refused, prompt_logprobs
  bool asked = false;
};

json score_one(net::StreamClient& client, const plan::PromptSpec& prompt, size_t i, int top_k,
               Direction& d) {
  if (d.status != "ok") return {{"status", d.status}, {"reason", d.reason}};
  const auto& own = d.producer_texts.logprobs[i];
  if (own.status != "ok") return {{"status", "skipped"}, {"reason", "no logprobs: " + own.status}};
  std::vector<int64_t> ids;
  for (const auto& t : own.tokens) {
    if (t.id < 0) {
      d.status = "unsupported";
      d.reason = "the answers' logprobs carry no token ids, so they cannot be sent as tokens";
      return {{"status", d.status}, {"reason", d.reason}};
    }
    ids.push_back(t.id);
  }
  if (ids.empty()) return {{"status", "skipped"}, {"reason", "empty answer"}};
  ForcedAnswer f = score_answer(client, d.scorer.endpoint, d.scorer.probe.kind, prompt.chat(), ids,
                                top_k, d.method);
  d.asked = true;
  d.method = f.method;
  if (f.status == "unsupported") {
    d.status = f.status;
    d.reason = f.reason;
  }
  if (f.status != "ok") return {{"status", f.status}, {"reason", f.reason}};
  compare::CrossScoreAccumulator one(d.scorer.plan.id, "", false);
  if (auto why = one.add(static_cast<int64_t>(i), prompt.id, own.tokens, f.tokens); !why.empty())
    return {{"status", "failed"}, {"reason", why}};
  d.total.add(static_cast<int64_t>(i), prompt.id, own.tokens, f.tokens);
  json j = compare::to_json(one.result());
  j.erase("answer_of");
  j.erase("prompts");
  return j;
}

compare::CrossScore finish(const Direction& d) {
  compare::CrossScore s = d.total.result();
  if (d.status != "ok") {
    s.status = d.status;
    s.reason = "cross-scoring unsupported: " + d.reason;
  } else if (s.tokens == 0) {
    s.status = "unsupported";
    s.reason = "cross-scoring unsupported: no answer had usable logprobs with token ids";
  }
  return s;
}

}  // namespace

PairCrossScores cross_score_pair(ExperimentContext& ctx, const plan::PromptSet& set,
                                 const LaneRuntime& base, const LaneTexts& base_texts,
                                 const LaneRuntime& cand, const LaneTexts& cand_texts, int top_k,
                                 const std::string& tokenizers_differ) {
  Direction cand_under_base{base, cand_texts, {base.plan.id, cand.plan.id, true}, "ok", ""};
  Direction base_under_cand{cand, base_texts, {cand.plan.id, base.plan.id, false}, "ok", ""};
  if (!tokenizers_differ.empty())
    for (Direction* d : {&cand_under_base, &base_under_cand}) {
      d->status = "unsupported";
      d->reason = "the lanes' tokenizers differ (" + tokenizers_differ +
                  "), so one lane's token ids mean nothing to the other";
    }
  PairCrossScores out;
  for (size_t i = 0; i < set.prompts.size(); ++i) {
    if (ctx.stopped()) break;
    json entry = {{"index", i}, {"id", set.prompts[i].id}};
    const bool have = i < base_texts.logprobs.size() && i < cand_texts.logprobs.size();
    if (!have) break;
    entry["candidate_under_baseline"] =
        score_one(ctx.client(), set.prompts[i], i, top_k, cand_under_base);
    entry["baseline_under_candidate"] =
        score_one(ctx.client(), set.prompts[i], i, top_k, base_under_cand);
    out.per_prompt.push_back(std::move(entry));
  }
  out.candidate_under_baseline = finish(cand_under_base);
  out.baseline_under_candidate = finish(base_under_cand);
  if (cand_under_base.asked)
    out.candidate_under_baseline_method = to_string(cand_under_base.method);
  if (base_under_cand.asked)
    out.baseline_under_candidate_method = to_string(base_under_cand.method);
  return out;
}

json to_json(const PairCrossScores& s) {
  json out = {{"candidate_under_baseline", compare::to_json(s.candidate_under_baseline)},
              {"baseline_under_candidate", compare::to_json(s.baseline_under_candidate)},
              {"kl_tail_rule", compare::kTruncatedKlRule}};
  const auto method = [](const std::string& m) { return m.empty() ? json(nullptr) : json(m); };
  out["candidate_under_baseline"]["scored_with"] = method(s.candidate_under_baseline_method);
  out["baseline_under_candidate"]["scored_with"] = method(s.baseline_under_candidate_method);
  return out;
}

}  // namespace lb::run
