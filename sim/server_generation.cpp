// ServerCore's generation and tokenizer endpoints: request validation answered as vLLM answers
// it, faults that strike before the stream, then a GenerationStream for the rest.
#include <boost/asio/post.hpp>
#include <cmath>

#include "generation_stream.h"
#include "logprob_model.h"
#include "multimodal_prefill.h"
#include "ollama_wire.h"
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

// An error in the route's own shape: vLLM's {"error": {...}}, or Ollama's {"error": "..."} on
// /api/chat.
HttpResponseMsg refusal(Endpoint endpoint, int code, const std::string& message,
                        const std::string& type, const std::string& param = "") {
  if (endpoint == Endpoint::OllamaChat)
    return json_response(static_cast<http::status>(code), ollama_error(message));
  return error_response(code, message, type, param);
}

// The body as a JSON object, or the 400 to answer.
std::optional<HttpResponseMsg> parse_body(const HttpRequestMsg& request, json& out,
                                          Endpoint endpoint = Endpoint::Chat) {
  out = json::parse(request.body(), nullptr, false);
  if (out.is_discarded())
    return refusal(endpoint, 400,
                   endpoint == Endpoint::OllamaChat ? "invalid character in the request body"
                                                    : json_decode_message("Expecting value"),
                   "BadRequestError");
  if (!out.is_object())
    return refusal(endpoint, 400, "request body must be a JSON object", "BadRequestError");
  return std::nullopt;
}

// Ollama refuses images sent to a model without a vision projector before it loads anything:
// 400 "<model> does not support vision" (on /v1 too, in the OpenAI error shape).
std::optional<std::string> ollama_vision_refusal(const GenRequest& gen, const Profile& profile) {
  if (profile.image_limit != 0 && profile.video_limit != 0) return std::nullopt;
  for (const auto& m : gen.messages)
    for (const auto& part : m.media)
      if ((part.video ? profile.video_limit : profile.image_limit) == 0)
        return profile.model_id + " does not support vision";
  return std::nullopt;
}

// Parses and validates a generation request as the served engine would; the error response to
// answer instead, or nullopt with `gen` ready to be generated.
std::optional<HttpResponseMsg> read_request(const HttpRequestMsg& request, Endpoint route,
                                            const SimConfig& config, GenRequest& gen) {
  json body;
  if (auto refused = parse_body(request, body, route)) return refused;
  gen.token_id_offset = config.token_id_offset;
  auto err = route == Endpoint::OllamaChat ? parse_ollama_chat(body, gen)
                                           : parse_gen_request(route, body, gen);
  if (err) return refusal(route, 400, err->message, "BadRequestError", err->param);
  const Profile& profile = config.profile;
  if (route == Endpoint::OllamaChat && gen.model != profile.model_id)
    return refusal(route, 404, "model \"" + gen.model + "\" not found, try pulling it first",
                   "NotFoundError");
  if (!gen.model.empty() && gen.model != profile.model_id)
    return error_response(404, "The model `" + gen.model + "` does not exist.", "NotFoundError",
                          "model");
  if (config.api == ServeAs::Ollama) {
    if (auto why = ollama_vision_refusal(gen, profile))
      return refusal(route, 400, *why, "invalid_request_error");
  }
  if (auto err = check_media_limits(gen, profile))
    return refusal(route, 400, err->message, "BadRequestError", err->param);
  return std::nullopt;
}

// The checks that need the media's bytes (fetched by now when given by URL): decoding them, the
// context length with their tokens, and the lane's logprob refusals.
std::optional<HttpResponseMsg> check_with_media(GenRequest& gen, const SimConfig& config) {
  const Endpoint route = gen.endpoint;
  const Profile& profile = config.profile;
  if (auto media_err = attach_media(gen, profile))
    return refusal(route, 400, media_err->message, "BadRequestError", media_err->param);
  const int64_t prompt = static_cast<int64_t>(gen.prompt_tokens->size());
  const int64_t max_len = profile.max_model_len;
  if (prompt >= max_len || (gen.max_tokens && prompt + *gen.max_tokens > max_len))
    return refusal(
        route, 400,
        context_error(max_len, prompt, gen.max_tokens, gen.endpoint != Endpoint::Completions),
        "BadRequestError");
  if (config.refuse_logprobs && (gen.logprobs || gen.top_logprobs > 0 || gen.prompt_logprobs >= 0))
    return refusal(route, 400, "logprobs are not supported by this server", "BadRequestError",
                   "logprobs");
  if (config.refuse_echo && gen.endpoint == Endpoint::Completions && gen.echo && gen.logprobs)
    return refusal(route, 400, "echo with logprobs is not supported by this server",
                   "BadRequestError", "echo");
  if (config.refuse_prompt_logprobs && gen.prompt_logprobs >= 0)
    return refusal(route, 400, "prompt_logprobs is not supported by this server", "BadRequestError",
                   "prompt_logprobs");
  return std::nullopt;
}

}  // namespace

void ServerCore::handle_generation(const std::shared_ptr<HttpSession>& session,
                                   const HttpRequestMsg& request, int endpoint) {
  GenRequest gen;
  if (auto refused = read_request(request, static_cast<Endpoint>(endpoint), config_, gen)) {
    session->send(std::move(*refused));
    return;
  }
  for (const auto& message : gen.messages)
    for (const auto& part : message.media)
      if (is_remote_url(part.url)) return fetch_then_generate(session, request, std::move(gen));
  generate(session, request, std::move(gen));
}

void ServerCore::fetch_then_generate(const std::shared_ptr<HttpSession>& session,
                                     const HttpRequestMsg& request, GenRequest gen) {
  // The parts go to the fetcher and come back filled, in the same order.
  std::vector<MediaPart> parts;
  for (auto& message : gen.messages)
    for (auto& part : message.media) parts.push_back(std::move(part));
  auto head = std::make_shared<HttpRequestMsg>();
  head->base() = request.base();  // the headers (faults, trial, request id), not the body
  auto pending = std::make_shared<GenRequest>(std::move(gen));
  fetcher_->fetch(
      std::move(parts), [this, session, head, pending](std::vector<MediaPart> fetched,
                                                       std::optional<MediaError> error) {
        boost::asio::post(io_, [this, session, head, pending, fetched = std::move(fetched),
                                error = std::move(error)]() mutable {
          if (!session->is_open()) return;
          if (error) {
            session->send(
                refusal(pending->endpoint, 400, error->message, "BadRequestError", "image_url"));
            return;
          }
          size_t k = 0;
          for (auto& message : pending->messages)
            for (auto& part : message.media) part = std::move(fetched[k++]);
          generate(session, *head, std::move(*pending));
        });
      });
}

void ServerCore::generate(const std::shared_ptr<HttpSession>& session,
                          const HttpRequestMsg& request, GenRequest gen) {
  if (auto refused = check_with_media(gen, config_)) {
    session->send(std::move(*refused));
    return;
  }
  const auto route = gen.endpoint;
  const int64_t prompt = static_cast<int64_t>(gen.prompt_tokens->size());
  const int64_t max_len = config_.profile.max_model_len;
  gen.speed_factor = run_jitter_factor(config_.run_jitter, config_.seed,
                                       parse_trial_header(header_value(request, "x-sim-trial")));
  const FaultKind fault = pick_fault(request);
  if (fault == FaultKind::RateLimit) {
    HttpResponseMsg res =
        refusal(route, 429, "Rate limit reached: too many requests in flight.", "RateLimitError");
    const double after_s = std::max(1.0, std::ceil(config_.faults.retry_after_s));
    res.set(http::field::retry_after, std::to_string(static_cast<int64_t>(after_s)));
    res.set("retry-after-ms",
            std::to_string(static_cast<int64_t>(config_.faults.retry_after_s * 1000)));
    session->send(std::move(res));
    return;
  }
  if (fault == FaultKind::ServerError) {
    session->send(refusal(route, 500, "Internal server error", "InternalServerError"));
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
  if (config_.cache_variance > 0 && engine_.cached_prefix_tokens(*gen.prompt_tokens) > 0)
    actx.cache_flip = config_.cache_variance;
  AnswerPlan plan = AnswerBook::builtin().answer(gen, actx);
  // Filler has no natural end: without max_tokens it stops at 200 tokens.
  OutputScript script = make_script(plan, gen.max_tokens, 200);
  if (!gen.max_tokens) {
    // vLLM's default cap: whatever the context leaves.
    const int64_t room = max_len - prompt;
    if (script.size() > room) script = make_script(plan, room, room);
  }
  std::string request_id = header_value(request, "x-request-id");
  const char* prefix = route == Endpoint::Completions ? "cmpl-"
                       : route == Endpoint::Responses ? "resp_"
                                                      : "chatcmpl-";
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
  if (auto refused = parse_body(request, body)) {
    session->send(std::move(*refused));
    return;
  }
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
  if (auto refused = parse_body(request, body)) {
    session->send(std::move(*refused));
    return;
  }
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
