#pragma once
// Aggregates over one lane's finished requests of one experiment phase, named like
// `vllm bench serve` so the numbers can be compared with it, each with its provenance.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/percentile.h"
#include "core/metrics/request_record.h"

namespace lb::metrics {

// Service-level objectives for goodput; a threshold <= 0 is not set. A request is "good" when
// every set threshold holds. TPOT does not apply to single-token requests (they pass it).
struct SloSpec {
  double ttft_ms = -1;
  double tpot_ms = -1;
  double e2el_ms = -1;
  bool any() const { return ttft_ms > 0 || tpot_ms > 0 || e2el_ms > 0; }
};

struct LaneSummary {
  std::string lane_id;     // from the records (empty when they disagree)
  std::string experiment;  // idem
  std::string phase;       // idem

  int64_t completed = 0;  // non-warm-up requests without error
  int64_t failed = 0;
  int64_t warmups_excluded = 0;
  std::map<std::string, int64_t> errors_by_kind;  // key: error_kind_key()

  double duration_s = 0;  // first send to last completion over non-warm-up requests
  int64_t total_input_tokens = 0;
  int64_t total_output_tokens = 0;
  double request_throughput = 0;      // completed / duration, req/s
  double output_throughput = 0;       // output tokens / duration, tok/s
  double total_token_throughput = 0;  // (input + output tokens) / duration, tok/s

  Distribution ttft_ms;
  Distribution ttft_content_ms;  // to the first content event (differs for reasoning streams)
  Distribution ttft_sched_ms;    // TTFT measured from t_sched (coordinated omission visible)
  Distribution tpot_ms;
  Distribution itl_ms;  // all inter-event gaps of all completed requests
  // Of those gaps, how many are 0 ms because two events came in one read (RequestMetrics).
  int64_t coalesced_events = 0;
  double coalesced_event_share = -1;  // coalesced_events / gaps; -1 when there are no gaps
  Distribution e2el_ms;
  Distribution e2el_sched_ms;  // E2EL measured from t_sched
  Distribution queue_delay_ms;
  Distribution decode_tok_s;      // per-request 1000 / TPOT
  Distribution tokens_per_event;  // over events whose token count the server gave

  SloSpec slo;
  int64_t good_requests = -1;   // -1 when no SLO is set
  double request_goodput = -1;  // good requests / duration, req/s; -1 when no SLO is set

  // From the requests' own usage (provenance server), over completed requests that reported it:
  // prefix-cache hit rate = sum cached_tokens / sum prompt_tokens; speculative decoding from
  // vLLM's per-request metrics.speculative_decoding. -1 when no request reported it.
  int64_t total_cached_tokens = -1;
  double prefix_cache_hit_rate = -1;
  int64_t spec_num_drafts = -1;
  int64_t spec_num_draft_tokens = -1;
  int64_t spec_num_accepted_tokens = -1;
  double spec_acceptance_rate = -1;    // accepted / draft tokens
  double spec_acceptance_length = -1;  // 1 + accepted / drafts

  double max_output_tokens_per_s = 0;   // peak of 1-second windows from first send, tokens
  int64_t max_concurrent_requests = 0;  // most requests in flight over [t_sent, t_done]
  // Set by the run, not by summarize(), for the per-trial figures: the GPU energy over the
  // measured requests in joules (-1 = not measured; energy_counter.h) and the lane's hourly cost
  // in US dollars (0 = not given; phase_cost.h).
  double energy_joules = -1;
  double usd_per_hour = 0;

  // Provenance of each figure, keyed by the summary's JSON name stem ("ttft", "output_tokens",
  // "input_tokens", "tpot", "itl", "max_output_tokens_per_s", "max_concurrent_requests", ...).
  std::map<std::string, Provenance> provenance;
};

// Stable snake_case key of an error kind, used in JSON ("http_status", "rate_limited", ...).
const char* error_kind_key(net::ErrorKind kind);

struct RequestSamples;  // summary_intervals.h
// With `samples`, also the per-request values behind the headline figures, for their intervals.
LaneSummary summarize(const std::vector<RequestRecord>& records, const SloSpec& slo = {},
                      RequestSamples* samples = nullptr);

// summary.json object: vLLM's key names (completed, duration, total_input_tokens,
// request_throughput, output_throughput, mean_ttft_ms, median_ttft_ms, std_ttft_ms, p99_ttft_ms,
// ... for ttft/tpot/itl/e2el, request_goodput, max_output_tokens_per_s, max_concurrent_requests)
// plus LaneBench's own (queue delay, ttft from schedule, decode rate, tokens per event,
// provenance). Unavailable values are null.
nlohmann::json to_json(const LaneSummary& summary);

// One requests.jsonl line. Never contains the prompt, an API key or the generated text.
nlohmann::json to_json(const RequestRecord& record, const RequestMetrics& metrics);

}  // namespace lb::metrics
