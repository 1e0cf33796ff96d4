// ServerCore's generation and tokenizer endpoints: request validation answered as vLLM answers
// it, faults that strike before the stream, then a GenerationStream for the rest.
#include <boost/asio/post.hpp>
#include <cmath>

#include "generation_stream.h"
#include "logprob_model.h"
#include "multimodal_prefill.h"
#include "prompt_scoring.h"
#include "run_jitter.h"
#include "server_core.h"
#include "text_filler.h"

namespace lb::sim {

namespace http = boost::beast::http;
using nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

std::string json_decode_message(const std::string& detail) {
  return "[{'type': 'json_invalid', 'loc': ('body', 0), 'msg': 'JSON decode error', 'input': {}, "
         "'ctx': {'error': '" +
         detail + "'}}]";
}

std::string context_error(int64_t max_len, int64_t prompt, std::optional<int64_t> max_tokens,
                          bool chat) {
  const std::string where = chat ? "messages" : "prompt";
  if (!max_tokens) {
    return "This model's maximum context length is " + std::to_string(max_len) +
           " tokens. However, your request has " + std::to_string(prompt) +
           " input tokens. Please reduce the length of the input " + where + ".";
  }
  return "This model's maximum context length is " + std::to_string(max_len) +
         " tokens. However, you requested " + std::to_string(prompt + *max_tokens) + " tokens (" +
         std::to_string(prompt) + " in the " + where + ", " + std::to_string(*max_tokens) +
         " in the completion). Please reduce the length of the " + where + " or completion.";
}

bool parse_body(const std::shared_ptr<HttpSession>& session, const HttpRequestMsg& request,
                json& out) {
  out = json::parse(request.body(), nullptr, false);
  if (out.is_discarded()) {
    session->send(error_response(400, json_decode_message("Expecting value"), "BadRequestError"));
    return false;
  }
  if (!out.is_object()) {
    session->send(error_response(400, "request body must be a JSON object", "BadRequestError"));
    return false;
  }
  return true;
}

}  // namespace

void ServerCore::handle_generation(const std::shared_ptr<HttpSession>& session,
                                   const HttpRequestMsg& request, int endpoint) {
  json body;
  if (!parse_body(session, request, body)) return;
  GenRequest gen;
  gen.token_id_offset = config_.token_id_offset;
  if (auto err = parse_gen_request(static_cast<Endpoint>(endpoint), body, gen)) {
    session->send(error_response(400, err->message, "BadRequestError", err->param));
    return;
  }
  if (!check_model(session, gen.model)) return;
  if (auto err = check_media_limits(gen, config_.profile)) {
    session->send(error_response(400, err->message, "BadRequestError", err->param));
    return;
  }
  for (const auto& message : gen.messages)
    for (const auto& part : message.media)
      if (is_remote_url(part.url))
        return fetch_then_generate(session, request, std::move(gen), endpoint);
  generate(session, request, std::move(gen), endpoint);
}

void ServerCore::fetch_then_generate(const std::shared_ptr<HttpSession>& session,
                                     const HttpRequestMsg& request, GenRequest gen, int endpoint) {
  // The parts go to the fetcher and come back filled, in the same order.
  std::vector<MediaPart> parts;
  for (auto& message : gen.messages)
    for (auto& part : message.media) parts.push_back(std::move(part));
  auto head = std::make_shared<HttpRequestMsg>();
  head->base() = request.base();  // the headers (faults, trial, request id), not the body
  auto pending = std::make_shared<GenRequest>(std::move(gen));
  fetcher_->fetch(
      std::move(parts), [this, session, head, pending, endpoint](std::vector<MediaPart> fetched,
                                                                 std::optional<MediaError> error) {
        boost::asio::post(io_, [this, session, head, pending, endpoint,
                                fetched = std::move(fetched), error = std::move(error)]() mutable {
          if (!session->is_open()) return;
          if (error) {
            session->send(error_response(400, error->message, "BadRequestError", "image_url"));
            return;
          }
          size_t k = 0;
          for (auto& message : pending->messages)
            for (auto& part : message.media) part = std::move(fetched[k++]);
          generate(session, *head, std::move(*pending), endpoint);
        });
      });
}

void ServerCore::generate(const std::shared_ptr<HttpSession>& session,
                          const HttpRequestMsg& request, GenRequest gen, int endpoint) {
  if (auto err = attach_media(gen, config_.profile)) {
    session->send(error_response(400, err->message, "BadRequestError", err->param));
    return;
  }
  const int64_t prompt = static_cast<int64_t>(gen.prompt_tokens->size());
  const int64_t max_len = config_.profile.max_model_len;
  if (prompt >= max_len || (gen.max_tokens && prompt + *gen.max_tokens > max_len)) {
    session->send(error_response(
        400, context_error(max_len, prompt, gen.max_tokens, gen.endpoint != Endpoint::Completions),
        "BadRequestError"));
    return;
  }
  if (config_.refuse_logprobs &&
      (gen.logprobs || gen.top_logprobs > 0 || gen.prompt_logprobs >= 0)) {
    session->send(error_response(400, "logprobs are not supported by this server",
                                 "BadRequestError", "logprobs"));
    return;
  }
  if (config_.refuse_echo && gen.endpoint == Endpoint::Completions && gen.echo && gen.logprobs) {
    session->send(error_response(400, "echo with logprobs is not supported by this server",
                                 "BadRequestError", "echo"));
    return;
  }
  if (config_.refuse_prompt_logprobs && gen.prompt_logprobs >= 0) {
    session->send(error_response(400, "prompt_logprobs is not supported by this server",
                                 "BadRequestError", "prompt_logprobs"));
    return;
  }
  gen.speed_factor = run_jitter_factor(config_.run_jitter, config_.seed,
                                       parse_trial_header(header_value(request, "x-sim-trial")));
  const FaultKind fault = pick_fault(request);
  if (fault == FaultKind::RateLimit) {
    HttpResponseMsg res =
        error_response(429, "Rate limit reached: too many requests in flight.", "RateLimitError");
    const double after_s = std::max(1.0, std::ceil(config_.faults.retry_after_s));
    res.set(http::field::retry_after, std::to_string(static_cast<int64_t>(after_s)));
    res.set("retry-after-ms",
            std::to_string(static_cast<int64_t>(config_.faults.retry_after_s * 1000)));
    session->send(std::move(res));
    return;
  }
  if (fault == FaultKind::ServerError) {
    session->send(error_response(500, "Internal server error", "InternalServerError"));
    return;
  }
  AnswerContext actx;
  actx.weights_dtype = config_.profile.weights_dtype;
  actx.flip_facts = config_.flip_facts;
  actx.seed = config_.seed;
  actx.retrieval_window_tokens = config_.retrieval_window_tokens;
  actx.variants = gen.logprobs;
  actx.temperature = gen.temperature;
  actx.top_p = gen.top_p;
  // A seeded sample is a function of (prompt, seed); an unseeded one takes the next draw.
  actx.sample_seed = gen.seed ? fnv1a64(last_user_text(gen), static_cast<uint64_t>(*gen.seed))
                              : fnv1a64(last_user_text(gen), 0x5eed0000ULL + ++sample_counter_);
  actx.batch_flip = batch_flip_probability(
      config_.batch_variance, std::min(engine_.sequences() + 1, config_.profile.max_num_seqs));
  AnswerPlan plan = AnswerBook::builtin().answer(gen, actx);
  // Filler has no natural end: without max_tokens it stops at 200 tokens.
  OutputScript script = make_script(plan, gen.max_tokens, 200);
  if (!gen.max_tokens) {
    // vLLM's default cap: whatever the context leaves.
    const int64_t room = max_len - prompt;
    if (script.size() > room) script = make_script(plan, room, room);
  }
  std::string request_id = header_value(request, "x-request-id");
  const char* prefix = endpoint == 0 ? "chatcmpl-" : endpoint == 1 ? "cmpl-" : "resp_";
  WireContext wire;
  wire.id = request_id.empty() ? next_id(prefix) : prefix + request_id;
  if (request_id.empty()) request_id = wire.id;
  wire.created = std::chrono::duration_cast<std::chrono::seconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();
  wire.model = config_.profile.model_id;
  wire.prompt_tokens = prompt;
  wire.report_cached = config_.profile.prefix_caching;
  wire.report_reasoning = !gen.reasoning_effort.empty();
  std::shared_ptr<const LogprobModel> logprobs;
  if (gen.logprobs) {
    const std::string user = last_user_text(gen);
    logprobs = std::make_shared<const LogprobModel>(script, plan.reference, plan.near_tie_variant,
                                                    plan.confident_variant, fnv1a64(user),
                                                    config_.profile.weights_dtype == "fp8");
    trace_flip(request_id, *logprobs, fnv1a64(user));
  }
  std::shared_ptr<const std::vector<PromptTokenScore>> prompt_scores;
  if (gen.endpoint == Endpoint::Completions &&
      ((gen.echo && gen.logprobs) || gen.prompt_logprobs >= 0)) {
    const int k = gen.prompt_logprobs >= 0 ? gen.prompt_logprobs : gen.top_logprobs;
    prompt_scores =
        std::make_shared<const std::vector<PromptTokenScore>>(score_prompt(gen, actx, k));
  }
  auto stream =
      std::make_shared<GenerationStream>(*this, session, std::move(gen), std::move(script),
                                         std::move(wire), std::move(request_id), fault);
  stream->set_logprobs(std::move(logprobs));
  stream->set_prompt_scores(std::move(prompt_scores));
  stream->start();
}

void ServerCore::trace_flip(const std::string& request_id, const LogprobModel& model,
                            uint64_t prompt_fnv) {
  const FlipTruth& flip = model.flip();
  if (flip.index < 0 || !trace_.enabled()) return;
  TraceRecord rec;
  rec.request_id = request_id;
  rec.event_index = -1;
  rec.sched_ns = steady_now_ns();
  rec.sent_ns = rec.sched_ns;
  rec.kind = "flip";
  char fnv[17];
  std::snprintf(fnv, sizeof fnv, "%016llx", static_cast<unsigned long long>(prompt_fnv));
  rec.detail = ojson{
      {"index", flip.index},
      {"margin_nats", flip.baseline_margin_nats},
      {"class", flip.cls},
      {"prompt_fnv",
       fnv}}.dump();
  trace_.write(rec);
}

void ServerCore::handle_tokenize(const std::shared_ptr<HttpSession>& session,
                                 const HttpRequestMsg& request) {
  json body;
  if (!parse_body(session, request, body)) return;
  if (!check_model(session, body.value("model", std::string{}))) return;
  std::vector<TokenId> tokens;
  if (body.contains("messages")) {
    std::vector<ChatMessage> messages;
    std::vector<ToolSpec> tools;
    if (auto err = parse_messages(body["messages"], messages)) {
      session->send(error_response(400, err->message, "BadRequestError", err->param));
      return;
    }
    if (body.contains("tools") && !body["tools"].is_null()) parse_tools(body["tools"], tools);
    tokens = render_chat(messages, tools, body.value("add_generation_prompt", true));
  } else if (body.contains("prompt") && body["prompt"].is_string()) {
    tokens = SimTokenizer::encode(body["prompt"].get<std::string>());
  } else {
    session->send(error_response(400, "Field required: prompt or messages", "BadRequestError"));
    return;
  }
  ojson out;
  out["count"] = tokens.size();
  out["max_model_len"] = config_.profile.max_model_len;
  ojson wire_ids = ojson::array();
  for (TokenId id : tokens) wire_ids.push_back(id + config_.token_id_offset);
  out["tokens"] = std::move(wire_ids);
  if (body.value("return_token_strs", false)) {
    ojson strs = ojson::array();
    for (TokenId id : tokens) strs.push_back(SimTokenizer::piece_text(id));
    out["token_strs"] = strs;
  } else {
    out["token_strs"] = nullptr;
  }
  session->send(json_response(http::status::ok, out.dump()));
}

void ServerCore::handle_detokenize(const std::shared_ptr<HttpSession>& session,
                                   const HttpRequestMsg& request) {
  json body;
  if (!parse_body(session, request, body)) return;
  if (!check_model(session, body.value("model", std::string{}))) return;
  if (!body.contains("tokens") || !body["tokens"].is_array()) {
    session->send(error_response(400, "Field required: tokens", "BadRequestError", "tokens"));
    return;
  }
  std::vector<TokenId> ids;
  for (const auto& t : body["tokens"]) {
    if (!t.is_number_integer() ||
        !SimTokenizer::valid_id(t.get<TokenId>() - config_.token_id_offset)) {
      session->send(error_response(400, "token id " + t.dump() + " is out of vocabulary",
                                   "BadRequestError", "tokens"));
      return;
    }
    ids.push_back(t.get<TokenId>() - config_.token_id_offset);
  }
  session->send(
      json_response(http::status::ok, ojson{{"prompt", SimTokenizer::decode(ids)}}.dump()));
}

}  // namespace lb::sim
