#pragma once
// Per-request metrics exactly as docs/metrics.md defines them (TTFT, E2EL, TPOT, ITL, tokens with
// provenance). Pure functions over a finished RequestRecord.
#include <cstdint>

#include "core/metrics/request_record.h"

namespace lb::metrics {

// When the server reports no token counts, output tokens are estimated from the UTF-8 bytes of
// content + reasoning (+ tool-call fragments) at this ratio (English-like BPE text averages about 4
// bytes per token). Figures derived from it carry Provenance::Estimated.
inline constexpr double kEstimatedBytesPerToken = 4.0;

// Tokens estimated from a byte count: round(bytes / 4), at least 1 when bytes > 0.
int64_t estimate_tokens_from_bytes(int64_t bytes);

// TTFT = first output event (content, reasoning or tool call) - t_sent; E2EL = last such event -
// t_sent; TTFT content = first event with content - t_sent;
// output tokens = usage.completion_tokens (Server) else the sum of per-event counts when every
// event has one (Server) else estimated from bytes (Estimated);
// TPOT = (E2EL - TTFT) / (tokens - 1) for tokens > 1; decode_tok_s = 1000 / TPOT;
// queue delay = t_sent - t_sched; prefill_tok_s = prompt_tokens / TTFT.
// A request whose result carries an error gets ok = false (its timings are still filled where the
// bytes allow, but aggregates ignore them).
RequestMetrics compute_request_metrics(const RequestRecord& record);

}  // namespace lb::metrics
