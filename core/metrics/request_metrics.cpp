#include "core/metrics/request_metrics.h"

#include <cmath>

#include "core/metrics/inter_token_gaps.h"

namespace lb::metrics {
namespace {

constexpr double kNsPerMs = 1e6;

double ms_between(int64_t from_ns, int64_t to_ns) {
  return static_cast<double>(to_ns - from_ns) / kNsPerMs;
}

// usage.completion_tokens, else the per-event counts when every event has one, else bytes / 4.
void fill_output_tokens(const net::StreamResult& r, RequestMetrics& m) {
  if (r.usage.completion_tokens >= 0) {
    m.output_tokens = r.usage.completion_tokens;
    m.output_tokens_provenance = Provenance::Server;
    return;
  }
  bool all_known = !r.events.empty();
  int64_t sum = 0;
  int64_t bytes = 0;
  for (const auto& e : r.events) {
    if (e.tokens < 0) {
      all_known = false;
    }
    sum += e.tokens;
    bytes += int64_t{e.content_bytes} + e.reasoning_bytes + e.tool_call_bytes;
  }
  if (all_known) {
    m.output_tokens = sum;
    m.output_tokens_provenance = Provenance::Server;
  } else if (bytes > 0) {
    m.output_tokens = estimate_tokens_from_bytes(bytes);
    m.output_tokens_provenance = Provenance::Estimated;
  } else if (r.error == net::ErrorKind::None) {
    m.output_tokens = 0;  // a finished response that carried no text generated nothing we saw
    m.output_tokens_provenance = Provenance::Measured;
  }
}

void fill_prompt_tokens(const RequestRecord& rec, RequestMetrics& m) {
  const auto& usage = rec.result.usage;
  if (usage.prompt_tokens >= 0) {
    m.prompt_tokens = usage.prompt_tokens;
    m.prompt_tokens_provenance = Provenance::Server;
  } else if (rec.expected_prompt_tokens >= 0) {
    m.prompt_tokens = rec.expected_prompt_tokens;
    m.prompt_tokens_provenance = Provenance::Estimated;
  }
  m.cached_tokens = usage.cached_tokens;
}

void fill_event_series(const net::StreamResult& r, RequestMetrics& m) {
  const auto& ev = r.events;
  std::vector<int64_t> stamps_ns;
  stamps_ns.reserve(ev.size());
  for (const auto& e : ev) stamps_ns.push_back(e.arrival_ns);
  m.itl_ms = itl_ms_from_stamps(stamps_ns);
  for (double gap_ms : m.itl_ms) m.coalesced_events += gap_ms == 0;
  bool all_known = !ev.empty();
  for (const auto& e : ev) {
    all_known = all_known && e.tokens >= 0;
  }
  if (all_known) {
    m.tokens_per_event.reserve(ev.size());
    for (const auto& e : ev) {
      m.tokens_per_event.push_back(e.tokens);
    }
  }
}

}  // namespace

int64_t estimate_tokens_from_bytes(int64_t bytes) {
  if (bytes <= 0) {
    return 0;
  }
  const auto tokens = static_cast<int64_t>(std::llround(double(bytes) / kEstimatedBytesPerToken));
  return tokens < 1 ? 1 : tokens;
}

RequestMetrics compute_request_metrics(const RequestRecord& record) {
  const net::StreamResult& r = record.result;
  RequestMetrics m;
  m.ok = r.error == net::ErrorKind::None;
  const bool sent = r.t_sent_ns > 0;
  if (sent && record.t_sched_ns > 0) {
    m.queue_delay_ms = ms_between(record.t_sched_ns, r.t_sent_ns);
  }
  fill_output_tokens(r, m);
  fill_prompt_tokens(record, m);
  fill_event_series(r, m);
  if (!sent || r.events.empty()) {
    return m;
  }

  m.ttft_ms = ms_between(r.t_sent_ns, r.events.front().arrival_ns);
  for (const auto& e : r.events) {
    if (e.content_bytes == 0) continue;
    m.ttft_content_ms = ms_between(r.t_sent_ns, e.arrival_ns);
    break;
  }
  if (record.t_sched_ns > 0) {
    m.ttft_sched_ms = ms_between(record.t_sched_ns, r.events.front().arrival_ns);
  }
  m.e2el_ms = ms_between(r.t_sent_ns, r.events.back().arrival_ns);
  if (record.t_sched_ns > 0) {
    m.e2el_sched_ms = ms_between(record.t_sched_ns, r.events.back().arrival_ns);
  }
  if (m.output_tokens > 1) {
    m.tpot_ms = (m.e2el_ms - m.ttft_ms) / static_cast<double>(m.output_tokens - 1);
    if (m.tpot_ms > 0) {
      m.decode_tok_s = 1000.0 / m.tpot_ms;
    }
  }
  if (m.prompt_tokens > 0 && m.ttft_ms > 0) {
    m.prefill_tok_s = static_cast<double>(m.prompt_tokens) / (m.ttft_ms / 1000.0);
  }
  return m;
}

const char* to_string(Provenance p) {
  switch (p) {
    case Provenance::Measured:
      return "measured";
    case Provenance::Server:
      return "server";
    case Provenance::Estimated:
      return "estimated";
    case Provenance::None:
      return "none";
  }
  return "none";
}

}  // namespace lb::metrics
