#pragma once
// The functional gates, one attempt at a time: each sends its requests to the lane and decides
// pass, fail, or unsupported (the server answered 404/501, or 400 saying the feature is not
// supported). Prompts are plain tasks a real model answers; the facts to recall use the
// "The secret <thing> is <VALUE>." form, so answers can be checked by the value alone.
#include <string>

#include <nlohmann/json.hpp>

#include "core/net/stream_client.h"
#include "core/run/drive/media_api.h"
#include "core/run/experiments/experiment.h"

namespace lb::run {

enum class GateOutcome { Pass, Fail, Unsupported };
const char* to_string(GateOutcome outcome);

struct GateAttempt {
  GateOutcome outcome = GateOutcome::Fail;
  std::string detail;  // why it failed or was unsupported; empty on pass
};

// Sends a gate's requests. Each one is recorded like every other request of a run
// (requests.jsonl and the sink; experiment = the gates experiment, phase = the check's name), so
// reports and a crash-interrupted run see them too.
class GateIo {
 public:
  GateIo(ExperimentContext& ctx, const LaneRuntime& lane) : ctx_(ctx), lane_(lane) {}
  // The check whose requests follow (the phase they are recorded under).
  void set_check(std::string check) { check_ = std::move(check); }
  // POST to an API path ("/chat/completions", "/responses") with the lane's model filled in.
  net::StreamResult post(const std::string& path, nlohmann::json body, bool stream);
  // A prompt of a prompt set, with its images and videos, streamed at temperature 0 over `api`
  // (/v1/chat/completions, /v1/responses or Ollama's /api/chat). Media over the lane's
  // max_media_bytes, or that the API cannot carry, are not sent: the result is Refused.
  net::StreamResult post_prompt(const plan::PromptSpec& prompt, MediaApi api = MediaApi::Chat);
  const LaneRuntime& lane() const { return lane_; }

 private:
  void record(const net::StreamResult& result, int64_t t_sched_ns,
              metrics::RequestMedia media = {});
  ExperimentContext& ctx_;
  const LaneRuntime& lane_;
  std::string check_;
  int64_t next_index_ = 0;
};

// Whether a failed call says the server lacks the feature rather than that it broke.
bool says_unsupported(const net::StreamResult& r);
// Whether a failed call is a server refusing images or videos: a 400/422 whose message names
// images, videos or multimodal input (vLLM with --limit-mm-per-prompt 0 or a text-only model,
// llama.cpp without a projector, Ollama with a text model), or a 404/501. A medium the server
// could not fetch or read ("Failed to fetch media from URL: ...", "Failed to load image: ...")
// is not a refusal: that prompt fails.
bool says_media_unsupported(const net::StreamResult& r);

// One attempt of a named check ("json", "streaming", "tools", ...); attempt varies the facts.
GateAttempt run_gate_check(const std::string& check, GateIo& io, int attempt);

}  // namespace lb::run
