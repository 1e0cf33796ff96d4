#pragma once
// One finished request as the run layer records it: the load model's schedule plus what the I/O
// thread measured. A value type; it crosses threads by move.
#include <cstdint>
#include <string>
#include <vector>

#include "core/metrics/request_media.h"
#include "core/net/http_types.h"

namespace lb::metrics {

enum class Provenance { Measured, Server, Estimated, None };
const char* to_string(Provenance p);

struct RequestRecord {
  std::string lane_id;
  std::string experiment;  // "throughput", "regression", ...
  std::string phase;       // e.g. "c32", "cold", "warm", "control", "4096"
  int64_t index = 0;       // prompt index within the experiment (texts order)
  bool warmup = false;     // warm-ups are recorded but excluded from aggregates
  int64_t trial = 0;       // 0-based trial of a repeated experiment (0 with one trial)
  // Multi-turn sessions: the 0-based session and turn of the request; -1 outside sessions.
  int64_t session = -1;
  int64_t turn = -1;
  int64_t t_sched_ns = 0;  // when the load model scheduled it (steady_clock)
  // The client's own estimate of the prompt's tokens (e.g. a synthetic prompt's size); used as
  // prompt_tokens with provenance Estimated when the server reports no usage. -1 = unknown.
  int64_t expected_prompt_tokens = -1;
  RequestMedia media;  // the images and videos it carried (empty for a text-only request)
  net::StreamResult result;
};

// Per-request derived metrics, exactly as docs/metrics.md defines them. Negative = not available.
struct RequestMetrics {
  double ttft_ms = -1;  // first output event (content, reasoning, tool call) - t_sent
  // First event with content - t_sent: for a reasoning model, when the answer itself begins
  // (TTFT counts its thinking). -1 when no content came.
  double ttft_content_ms = -1;
  double ttft_sched_ms = -1;   // same, from t_sched (coordinated omission visible)
  double e2el_ms = -1;         // last content event - t_sent
  double e2el_sched_ms = -1;   // same, from t_sched
  double queue_delay_ms = -1;  // t_sent - t_sched
  double tpot_ms = -1;         // (e2el - ttft) / (output_tokens - 1), output_tokens > 1
  double decode_tok_s = -1;    // 1000 / tpot_ms
  int64_t output_tokens = -1;
  Provenance output_tokens_provenance = Provenance::None;
  int64_t prompt_tokens = -1;
  Provenance prompt_tokens_provenance = Provenance::None;
  int64_t cached_tokens = -1;
  double prefill_tok_s = -1;  // prompt_tokens / TTFT ("effective", includes scheduling)
  bool ok = false;
  // Gaps between consecutive output events (per chunk, vLLM-compatible), ms.
  std::vector<double> itl_ms;
  // Events that arrived in the same read as the event before them, so share its stamp and give
  // a 0 ms gap in itl_ms that the server did not make (the client read late, or a proxy
  // buffered). Counted so a summary can say how much of its ITL is such gaps.
  int64_t coalesced_events = 0;
  // Tokens each event carried, when the server said so for every event; empty otherwise.
  std::vector<int32_t> tokens_per_event;
};

}  // namespace lb::metrics
