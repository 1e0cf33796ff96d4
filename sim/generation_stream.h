#pragma once
// GenerationStream: one generation request in flight. The engine model calls on_step() at each
// scheduled time; the stream turns the step's tokens into vLLM events (chat, completions or
// responses) or Ollama's /api/chat lines, writes them, traces them, observes latency metrics, and
// plays injected faults.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "engine_model.h"
#include "gen_request.h"
#include "http_session.h"
#include "logprob_model.h"
#include "ollama_wire.h"
#include "output_script.h"
#include "prompt_scoring.h"
#include "sim_config.h"
#include "wire_format.h"
#include "wire_responses.h"

namespace lb::sim {

class ServerCore;

class GenerationStream : public std::enable_shared_from_this<GenerationStream> {
 public:
  GenerationStream(ServerCore& core, std::shared_ptr<HttpSession> session, GenRequest request,
                   OutputScript script, WireContext wire, std::string request_id, FaultKind fault);

  // Per-token logprobs for the request (it asked for them); null = none.
  void set_logprobs(std::shared_ptr<const LogprobModel> model) { logprobs_ = std::move(model); }
  // Scores of the prompt's tokens (echo with logprobs, prompt_logprobs); null = none asked for.
  void set_prompt_scores(std::shared_ptr<const std::vector<PromptTokenScore>> scores) {
    prompt_scores_ = std::move(scores);
  }
  void start();

 private:
  void submit();
  void on_step(const StepOutput& step);
  void emit_step(const StepOutput& step);
  void write_event(std::string data, int tokens, const char* kind);
  void write_events(std::vector<std::string> events, int tokens_on_first, const char* kind);
  void stream_tokens(int64_t begin, int64_t end, bool last);
  void stream_finish();
  void send_whole_response();
  // Returns true when a mid-stream fault took over the rest of the response.
  bool strike_fault();
  void abort_engine();
  void observe_step_latency(bool first);
  std::optional<UsageSoFar> continuous_usage() const;
  OllamaTimings ollama_timings() const;
  UsageSoFar usage() const;

  ServerCore& core_;
  std::shared_ptr<HttpSession> session_;
  GenRequest request_;
  OutputScript script_;
  WireContext wire_;
  std::string request_id_;
  FaultKind fault_;
  std::optional<ResponsesEncoder> responses_;
  std::shared_ptr<const LogprobModel> logprobs_;
  std::shared_ptr<const std::vector<PromptTokenScore>> prompt_scores_;
  SpecTally spec_;
  uint64_t seq_id_ = 0;
  bool engine_done_ = false;
  bool header_sent_ = false;
  int64_t emitted_ = 0;
  int64_t event_index_ = 0;
  int64_t token_events_ = 0;
  int64_t now_sched_ns_ = 0;
  int64_t arrival_ns_ = 0;
  int64_t last_token_ns_ = 0;
  int64_t first_token_ns_ = 0;
  bool finished_ = false;
};

}  // namespace lb::sim
