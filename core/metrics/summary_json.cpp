// JSON forms of a LaneSummary (summary.json) and of one request (a requests.jsonl line).
#include <cmath>

#include "core/metrics/summary.h"

namespace lb::metrics {
namespace {

using nlohmann::json;

constexpr size_t kMaxErrorMessageBytes = 2000;

// NaN (an empty distribution) and negative "not available" values become null.
json number_or_null(double v) { return std::isnan(v) ? json(nullptr) : json(v); }
json nonneg_or_null(double v) { return (std::isnan(v) || v < 0) ? json(nullptr) : json(v); }
json nonneg_or_null(int64_t v) { return v < 0 ? json(nullptr) : json(v); }

// vLLM's naming: mean_<stem>_<unit>, median_..., std_..., p99_... .
void put_distribution(json& j, const std::string& stem, const std::string& unit,
                      const Distribution& d) {
  const std::string tail = "_" + stem + (unit.empty() ? "" : "_" + unit);
  j["mean" + tail] = number_or_null(d.mean);
  j["median" + tail] = number_or_null(d.median);
  j["std" + tail] = number_or_null(d.std);
  j["p50" + tail] = number_or_null(d.p50);
  j["p90" + tail] = number_or_null(d.p90);
  j["p95" + tail] = number_or_null(d.p95);
  j["p99" + tail] = number_or_null(d.p99);
  j["count" + tail] = d.count;
}

// An HTML error page can be hundreds of KB; keep the start, cut on a UTF-8 character boundary.
std::string capped(const std::string& text, size_t max_bytes) {
  if (text.size() <= max_bytes) {
    return text;
  }
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
    --cut;
  }
  return text.substr(0, cut) + "... (" + std::to_string(text.size()) + " bytes)";
}

json error_json(const net::StreamResult& r) {
  if (r.error == net::ErrorKind::None) {
    return nullptr;
  }
  return {{"kind", error_kind_key(r.error)},
          {"message", capped(r.error_message, kMaxErrorMessageBytes)},
          {"retry_after_s", nonneg_or_null(r.retry_after_s)}};
}

json spec_json(const net::SpecDecodeUsage& s) {
  if (s.num_drafts < 0 && s.num_draft_tokens < 0 && s.num_accepted_tokens < 0) {
    return nullptr;
  }
  return {{"num_drafts", nonneg_or_null(s.num_drafts)},
          {"num_draft_tokens", nonneg_or_null(s.num_draft_tokens)},
          {"num_accepted_tokens", nonneg_or_null(s.num_accepted_tokens)},
          {"accepted_per_position", s.accepted_per_position}};
}

}  // namespace

json to_json(const LaneSummary& s) {
  json j;
  j["lane"] = s.lane_id;
  j["experiment"] = s.experiment;
  j["phase"] = s.phase;
  j["completed"] = s.completed;
  j["failed"] = s.failed;
  j["warmups_excluded"] = s.warmups_excluded;
  j["errors"] = s.errors_by_kind;
  j["duration"] = s.duration_s;
  j["total_input_tokens"] = s.total_input_tokens;
  j["total_output_tokens"] = s.total_output_tokens;
  j["request_throughput"] = s.request_throughput;
  j["request_goodput"] = s.slo.any() ? json(s.request_goodput) : json(nullptr);
  j["good_requests"] = nonneg_or_null(s.good_requests);
  j["slo"] = {{"ttft_ms", nonneg_or_null(s.slo.ttft_ms > 0 ? s.slo.ttft_ms : -1)},
              {"tpot_ms", nonneg_or_null(s.slo.tpot_ms > 0 ? s.slo.tpot_ms : -1)},
              {"e2el_ms", nonneg_or_null(s.slo.e2el_ms > 0 ? s.slo.e2el_ms : -1)}};
  j["output_throughput"] = s.output_throughput;
  j["total_token_throughput"] = s.total_token_throughput;
  j["max_output_tokens_per_s"] = s.max_output_tokens_per_s;
  j["max_concurrent_requests"] = s.max_concurrent_requests;
  put_distribution(j, "ttft", "ms", s.ttft_ms);
  put_distribution(j, "ttft_content", "ms", s.ttft_content_ms);
  put_distribution(j, "tpot", "ms", s.tpot_ms);
  put_distribution(j, "itl", "ms", s.itl_ms);
  j["coalesced_events"] = s.coalesced_events;
  j["coalesced_event_share"] = nonneg_or_null(s.coalesced_event_share);
  put_distribution(j, "e2el", "ms", s.e2el_ms);
  put_distribution(j, "queue_delay", "ms", s.queue_delay_ms);
  put_distribution(j, "ttft_sched", "ms", s.ttft_sched_ms);
  put_distribution(j, "e2el_sched", "ms", s.e2el_sched_ms);
  put_distribution(j, "decode", "tok_s", s.decode_tok_s);
  j["total_cached_tokens"] = nonneg_or_null(s.total_cached_tokens);
  j["prefix_cache_hit_rate"] = nonneg_or_null(s.prefix_cache_hit_rate);
  j["spec_num_drafts"] = nonneg_or_null(s.spec_num_drafts);
  j["spec_num_draft_tokens"] = nonneg_or_null(s.spec_num_draft_tokens);
  j["spec_num_accepted_tokens"] = nonneg_or_null(s.spec_num_accepted_tokens);
  j["spec_acceptance_rate"] = nonneg_or_null(s.spec_acceptance_rate);
  j["spec_acceptance_length"] = nonneg_or_null(s.spec_acceptance_length);
  put_distribution(j, "tokens_per_event", "", s.tokens_per_event);
  json prov = json::object();
  for (const auto& [key, p] : s.provenance) {
    prov[key] = to_string(p);
  }
  j["provenance"] = prov;
  return j;
}

json to_json(const RequestRecord& rec, const RequestMetrics& m) {
  const net::StreamResult& r = rec.result;
  json offsets = json::array();
  json tokens = json::array();
  for (const auto& e : r.events) {
    offsets.push_back(e.arrival_ns - r.t_sent_ns);
    tokens.push_back(e.tokens >= 0 ? json(e.tokens) : json(nullptr));
  }
  json j;
  j["lane"] = rec.lane_id;
  j["experiment"] = rec.experiment;
  j["phase"] = rec.phase;
  j["index"] = rec.index;
  j["warmup"] = rec.warmup;
  j["trial"] = rec.trial;
  if (rec.session >= 0) {
    j["session"] = rec.session;
    j["turn"] = rec.turn;
  }
  j["ok"] = m.ok;
  j["t_sched_ns"] = rec.t_sched_ns;
  j["t_submit_ns"] = r.t_submit_ns;
  j["t_sent_ns"] = r.t_sent_ns;
  j["t_first_byte_ns"] = r.t_first_byte_ns;
  j["t_done_ns"] = r.t_done_ns;
  j["event_offsets_ns"] = std::move(offsets);  // from t_sent
  j["event_tokens"] = std::move(tokens);
  j["total_events"] = r.total_events;
  j["ttft_ms"] = nonneg_or_null(m.ttft_ms);
  j["ttft_content_ms"] = nonneg_or_null(m.ttft_content_ms);
  j["coalesced_events"] = m.coalesced_events;
  j["ttft_sched_ms"] = nonneg_or_null(m.ttft_sched_ms);
  j["e2el_ms"] = nonneg_or_null(m.e2el_ms);
  j["e2el_sched_ms"] = nonneg_or_null(m.e2el_sched_ms);
  j["tpot_ms"] = nonneg_or_null(m.tpot_ms);
  j["decode_tok_s"] = nonneg_or_null(m.decode_tok_s);
  j["queue_delay_ms"] = nonneg_or_null(m.queue_delay_ms);
  j["prefill_tok_s"] = nonneg_or_null(m.prefill_tok_s);
  j["output_tokens"] = nonneg_or_null(m.output_tokens);
  j["output_tokens_provenance"] = to_string(m.output_tokens_provenance);
  j["prompt_tokens"] = nonneg_or_null(m.prompt_tokens);
  j["prompt_tokens_provenance"] = to_string(m.prompt_tokens_provenance);
  j["cached_tokens"] = nonneg_or_null(m.cached_tokens);
  j["reasoning_tokens"] = nonneg_or_null(r.usage.reasoning_tokens);
  j["finish_reason"] = r.finish_reason.empty() ? json(nullptr) : json(r.finish_reason);
  j["http_status"] = r.http_status;
  j["http_version"] = r.http_version_used;
  j["model"] = r.model;
  j["error"] = error_json(r);
  j["spec_decode"] = spec_json(r.spec);
  j["tool_calls"] = r.tool_calls.size();
  if (!r.server_timings.is_null()) {
    j["server_timings"] = r.server_timings;
  }
  if (!rec.media.empty()) j["media"] = to_json(rec.media);
  return j;
}

}  // namespace lb::metrics
