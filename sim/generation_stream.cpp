#include "generation_stream.h"

#include <boost/asio/steady_timer.hpp>

#include "server_core.h"
#include "text_filler.h"
#include "wire_logprobs.h"

namespace lb::sim {

namespace http = boost::beast::http;

GenerationStream::GenerationStream(ServerCore& core, std::shared_ptr<HttpSession> session,
                                   GenRequest request, OutputScript script, WireContext wire,
                                   std::string request_id, FaultKind fault)
    : core_(core),
      session_(std::move(session)),
      request_(std::move(request)),
      script_(std::move(script)),
      wire_(std::move(wire)),
      request_id_(std::move(request_id)),
      fault_(fault) {
  spec_.num_spec_tokens = core_.engine().profile().num_speculative_tokens;
  if (request_.endpoint == Endpoint::Responses) responses_.emplace(wire_, &script_);
}

void GenerationStream::start() {
  arrival_ns_ = steady_now_ns();
  std::weak_ptr<GenerationStream> weak = weak_from_this();
  session_->set_on_close([weak] {
    if (auto self = weak.lock()) self->abort_engine();
  });
  if (fault_ == FaultKind::SlowFirstByte) {
    const double delay_s = core_.config().faults.slow_first_byte_ms / 1000.0;
    auto self = shared_from_this();
    core_.clock().call_at(core_.clock().now_s() + delay_s, [self] { self->submit(); });
    return;
  }
  submit();
}

void GenerationStream::submit() {
  if (!session_->is_open()) return;
  if (request_.stream && responses_) {
    header_sent_ = true;
    session_->begin_stream(http::status::ok, "text/event-stream; charset=utf-8");
    now_sched_ns_ = steady_now_ns();
    write_events(responses_->start(), 0, "framing");
  }
  SeqSpec spec;
  spec.prompt = request_.prompt_tokens;
  spec.output_tokens = script_.size();
  spec.seed = fnv1a64(request_id_);
  spec.speed_factor = request_.speed_factor;
  spec.encoder_s = request_.vision_encoder_s;
  auto self = shared_from_this();
  seq_id_ = core_.engine().submit(std::move(spec),
                                  [self](const StepOutput& step) { self->on_step(step); });
}

void GenerationStream::abort_engine() {
  if (engine_done_) return;
  engine_done_ = true;
  core_.engine().abort(seq_id_);
  if (!finished_) {
    finished_ = true;
    core_.metrics().count_finished("abort");
  }
}

std::optional<UsageSoFar> GenerationStream::continuous_usage() const {
  if (!(request_.include_usage && request_.continuous_usage)) return std::nullopt;
  return usage();
}

OllamaTimings GenerationStream::ollama_timings() const {
  OllamaTimings t;
  const int64_t first = first_token_ns_ > 0 ? first_token_ns_ : now_sched_ns_;
  t.total_ns = std::max<int64_t>(0, now_sched_ns_ - arrival_ns_);
  t.load_ns = std::min<int64_t>(t.total_ns, 1'000'000);  // the model is loaded: a lookup
  t.prompt_eval_ns = std::max<int64_t>(0, first - arrival_ns_);
  t.eval_ns = std::max<int64_t>(0, now_sched_ns_ - first);
  return t;
}

UsageSoFar GenerationStream::usage() const {
  return UsageSoFar{emitted_, script_.reasoning_tokens(emitted_)};
}

void GenerationStream::write_event(std::string data, int tokens, const char* kind) {
  TraceRecord rec;
  rec.request_id = request_id_;
  rec.event_index = event_index_++;
  rec.sched_ns = now_sched_ns_;
  rec.tokens = tokens;
  rec.kind = kind;
  session_->send_chunk(std::move(data), std::move(rec));
}

void GenerationStream::write_events(std::vector<std::string> events, int tokens_on_first,
                                    const char* kind) {
  for (auto& e : events) {
    write_event(std::move(e), tokens_on_first, tokens_on_first > 0 ? "token" : kind);
    tokens_on_first = 0;
  }
}

void GenerationStream::observe_step_latency(bool first) {
  const double scale_ns = 1e9;
  if (first) {
    core_.metrics().observe_ttft_s(static_cast<double>(now_sched_ns_ - arrival_ns_) / scale_ns);
  } else {
    core_.metrics().observe_itl_s(static_cast<double>(now_sched_ns_ - last_token_ns_) / scale_ns);
  }
  last_token_ns_ = now_sched_ns_;
}

void GenerationStream::on_step(const StepOutput& step) {
  session_->cork();
  emit_step(step);
  session_->uncork();
}

void GenerationStream::emit_step(const StepOutput& step) {
  now_sched_ns_ = steady_ns(core_.clock().to_steady(core_.clock().now_s()));
  if (step.first) {
    wire_.cached_tokens = step.cached_tokens;
    first_token_ns_ = now_sched_ns_;
  }
  if (step.drafted > 0) spec_.add(step.drafted, step.accepted);
  const int64_t begin = emitted_;
  emitted_ = std::min<int64_t>(emitted_ + step.tokens, script_.size());
  observe_step_latency(step.first);
  if (step.last) {
    engine_done_ = true;
    finished_ = true;
    core_.metrics().count_finished(script_.finish_reason);
    core_.metrics().observe_e2e_s(static_cast<double>(now_sched_ns_ - arrival_ns_) / 1e9);
  }
  if (!session_->is_open()) return;
  if (!request_.stream) {
    if (step.last) send_whole_response();
    return;
  }
  if (!header_sent_) {
    header_sent_ = true;
    const bool ollama = request_.endpoint == Endpoint::OllamaChat;
    session_->begin_stream(http::status::ok,
                           ollama ? "application/x-ndjson" : "text/event-stream; charset=utf-8");
    if (request_.endpoint == Endpoint::Chat) {
      std::optional<UsageSoFar> u = continuous_usage();
      if (u) *u = UsageSoFar{};  // the role chunk precedes every generated token
      write_event(chat_role_chunk(wire_, u), 0, "role");
    }
  }
  if (token_events_ >= core_.config().faults.after_events && strike_fault()) return;
  stream_tokens(begin, emitted_, step.last);
  if (step.last) stream_finish();
}

void GenerationStream::stream_tokens(int64_t begin, int64_t end, bool last) {
  const int tokens = static_cast<int>(end - begin);
  ++token_events_;
  const std::string finish = last ? script_.finish_reason : "";
  if (request_.endpoint == Endpoint::Chat) {
    std::string chunk = chat_delta_chunk(wire_, script_.delta(begin, end), script_.tool_calls,
                                         finish, continuous_usage());
    if (logprobs_) {
      splice_logprobs(chunk, chat_logprobs_json(*logprobs_, logprobs_->content_before(begin),
                                                logprobs_->content_before(end), request_));
    }
    write_event(std::move(chunk), tokens, "token");
  } else if (request_.endpoint == Endpoint::Completions) {
    std::string chunk =
        completion_chunk(wire_, script_.delta(begin, end).content, finish, continuous_usage());
    if (logprobs_) {
      const int64_t offset = static_cast<int64_t>(script_.content_text(begin).size());
      splice_logprobs(chunk, completion_logprobs_json(*logprobs_, logprobs_->content_before(begin),
                                                      logprobs_->content_before(end), offset,
                                                      request_, nullptr));
    }
    write_event(std::move(chunk), tokens, "token");
  } else if (request_.endpoint == Endpoint::OllamaChat) {
    static const std::vector<PlannedToolCall> kNone;
    write_event(
        ollama_chat_line(wire_, script_.delta(begin, end), last ? script_.tool_calls : kNone),
        tokens, "token");
  } else {
    write_events(responses_->tokens(begin, end), tokens, "framing");
  }
}

void GenerationStream::stream_finish() {
  const UsageSoFar u = usage();
  if (request_.endpoint == Endpoint::Responses) {
    write_events(responses_->finish(u), 0, "usage");
  } else if (request_.endpoint == Endpoint::OllamaChat) {
    write_event(ollama_done_line(wire_, script_.finish_reason, u, ollama_timings()), 0, "usage");
  } else {
    if (request_.include_usage) {
      const bool spec = spec_.steps > 0;
      write_event(request_.endpoint == Endpoint::Chat
                      ? chat_usage_chunk(wire_, u, spec ? &spec_ : nullptr)
                      : completion_usage_chunk(wire_, u),
                  0, "usage");
    }
    write_event(sse_done(), 0, "done");
  }
  session_->end_stream();
}

void GenerationStream::send_whole_response() {
  const UsageSoFar u = usage();
  std::string body;
  const int64_t content_end = logprobs_ ? logprobs_->content_tokens() : 0;
  if (request_.endpoint == Endpoint::Chat) {
    body = chat_response(wire_, script_, u);
    if (logprobs_) splice_logprobs(body, chat_logprobs_json(*logprobs_, 0, content_end, request_));
  } else if (request_.endpoint == Endpoint::Completions) {
    body = completion_response(wire_, script_, u);
    if (request_.echo) {
      // vLLM's echo: the prompt's text leads the answer's.
      const std::string quoted =
          nlohmann::json(request_.prompt_text)
              .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      const size_t at = body.find("\"text\":\"");
      if (at != std::string::npos) body.insert(at + 8, quoted.substr(1, quoted.size() - 2));
    }
    if (logprobs_) {
      splice_logprobs(body,
                      completion_logprobs_json(*logprobs_, 0, content_end, 0, request_,
                                               request_.echo ? prompt_scores_.get() : nullptr));
    }
    if (prompt_scores_ && request_.prompt_logprobs >= 0)
      splice_prompt_logprobs(body, prompt_logprobs_json(*prompt_scores_, request_.token_id_offset));
  } else if (request_.endpoint == Endpoint::OllamaChat) {
    body = ollama_chat_response(wire_, script_, u, ollama_timings());
  } else {
    body = responses_->full_response(u);
  }
  if (fault_ == FaultKind::Malformed) body = body.substr(0, body.size() / 2);
  if (fault_ == FaultKind::MidstreamError) {
    session_->send(request_.endpoint == Endpoint::OllamaChat
                       ? json_response(http::status::internal_server_error,
                                       ollama_error("Internal server error"))
                       : error_response(500, "Internal server error", "InternalServerError"));
    return;
  }
  if (fault_ == FaultKind::Drop) {
    session_->drop_after_writes();
    return;
  }
  session_->send(json_response(http::status::ok, std::move(body)));
}

bool GenerationStream::strike_fault() {
  switch (fault_) {
    case FaultKind::MidstreamError:
      fault_ = FaultKind::None;
      if (request_.endpoint == Endpoint::OllamaChat) {
        write_event(ollama_error("Internal server error", true), 0, "error");
        session_->end_stream();
        abort_engine();
        return true;
      }
      write_event(sse(stream_error_json("Internal server error", "InternalServerError", 500)), 0,
                  "error");
      if (request_.endpoint != Endpoint::Responses) write_event(sse_done(), 0, "done");
      session_->end_stream();
      abort_engine();
      return true;
    case FaultKind::Drop:
      fault_ = FaultKind::None;
      session_->drop_after_writes();
      abort_engine();
      return true;
    case FaultKind::Stall: {
      fault_ = FaultKind::None;
      abort_engine();
      auto session = session_;
      const double hold_s = core_.config().faults.stall_ms / 1000.0;
      core_.clock().call_at(core_.clock().now_s() + hold_s, [session] { session->close(); });
      return true;
    }
    case FaultKind::Malformed:
      fault_ = FaultKind::None;
      write_event(
          "data: {\"id\":\"" + wire_.id + "\",\"choices\":[{\"index\":0,\"delta\":{\"content\n\n",
          0, "malformed");
      return false;
    default:
      return false;
  }
}

}  // namespace lb::sim
