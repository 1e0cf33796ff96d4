#include "metrics/summary.h"

#include <algorithm>
#include <cmath>

#include "metrics/request_metrics.h"

namespace lb::metrics {
namespace {

constexpr double kNsPerS = 1e9;

// Combines per-request provenances into one for an aggregate: any estimate makes the aggregate an
// estimate; all-server stays server.
class ProvenanceMix {
 public:
  void add(Provenance p) {
    if (p == Provenance::None) {
      return;
    }
    if (result_ == Provenance::None) {
      result_ = p;
    } else if (p == Provenance::Estimated || result_ == Provenance::Estimated) {
      result_ = Provenance::Estimated;
    } else if (p != result_) {
      result_ = Provenance::Measured;
    }
  }
  Provenance result() const { return result_; }

 private:
  Provenance result_ = Provenance::None;
};

void keep_common(std::string& field, const std::string& value, bool first) {
  if (first) {
    field = value;
  } else if (field != value) {
    field.clear();
  }
}

bool meets_slo(const RequestMetrics& m, const SloSpec& slo) {
  if (slo.ttft_ms > 0 && (m.ttft_ms < 0 || m.ttft_ms > slo.ttft_ms)) {
    return false;
  }
  // TPOT is undefined for a single-token answer: the objective does not apply to it.
  if (slo.tpot_ms > 0 && m.tpot_ms >= 0 && m.tpot_ms > slo.tpot_ms) {
    return false;
  }
  if (slo.e2el_ms > 0 && (m.e2el_ms < 0 || m.e2el_ms > slo.e2el_ms)) {
    return false;
  }
  return true;
}

// Peak tokens in any 1-second window counted from the first send. Per-event token counts when
// the server gave them; otherwise the request's tokens spread evenly over its events (estimate).
double peak_tokens_per_s(const std::vector<const RequestRecord*>& recs,
                         const std::vector<RequestMetrics>& ms, int64_t t0_ns, bool& exact) {
  std::vector<double> bins;
  exact = true;
  for (size_t i = 0; i < recs.size(); ++i) {
    const auto& events = recs[i]->result.events;
    if (events.empty()) {
      continue;
    }
    const bool known = ms[i].tokens_per_event.size() == events.size();
    exact = exact && known;
    const double spread =
        ms[i].output_tokens > 0 ? double(ms[i].output_tokens) / double(events.size()) : 0.0;
    for (size_t e = 0; e < events.size(); ++e) {
      const int64_t offset_ns = std::max<int64_t>(0, events[e].arrival_ns - t0_ns);
      const auto bin = static_cast<size_t>(offset_ns / int64_t(kNsPerS));
      if (bins.size() <= bin) {
        bins.resize(bin + 1, 0.0);
      }
      bins[bin] += known ? double(ms[i].tokens_per_event[e]) : spread;
    }
  }
  return bins.empty() ? 0.0 : *std::max_element(bins.begin(), bins.end());
}

// Most requests simultaneously between t_sent and t_done. A request ending at the instant
// another starts does not overlap it.
int64_t max_overlap(const std::vector<const RequestRecord*>& recs) {
  std::vector<std::pair<int64_t, int>> edges;
  for (const auto* r : recs) {
    if (r->result.t_sent_ns <= 0 || r->result.t_done_ns < r->result.t_sent_ns) {
      continue;
    }
    edges.emplace_back(r->result.t_sent_ns, +1);
    edges.emplace_back(r->result.t_done_ns, -1);
  }
  std::sort(edges.begin(), edges.end());  // -1 sorts before +1 at equal times
  int64_t now = 0;
  int64_t peak = 0;
  for (const auto& [t, d] : edges) {
    now += d;
    peak = std::max(peak, now);
  }
  return peak;
}

struct Samples {
  std::vector<double> ttft, ttft_content, ttft_sched, tpot, itl, e2el, e2el_sched, queue, decode,
      tokens_per_event;
  int64_t coalesced = 0;
};

// Sums of what requests reported in their usage; a sum stays -1 until one request reports it.
struct UsageTotals {
  int64_t cached = -1, prompt_with_cached = 0;
  int64_t drafts = -1, draft_tokens = -1, accepted = -1;

  static void add(int64_t& total, int64_t v) {
    if (v >= 0) {
      total = (total < 0 ? 0 : total) + v;
    }
  }
  void add(const RequestRecord& r, const RequestMetrics& m) {
    if (m.cached_tokens >= 0 && m.prompt_tokens_provenance == Provenance::Server) {
      add(cached, m.cached_tokens);
      prompt_with_cached += m.prompt_tokens;
    }
    add(drafts, r.result.spec.num_drafts);
    add(draft_tokens, r.result.spec.num_draft_tokens);
    add(accepted, r.result.spec.num_accepted_tokens);
  }
  void write(LaneSummary& out) const {
    out.total_cached_tokens = cached;
    if (cached >= 0 && prompt_with_cached > 0) {
      out.prefix_cache_hit_rate = double(cached) / double(prompt_with_cached);
    }
    out.spec_num_drafts = drafts;
    out.spec_num_draft_tokens = draft_tokens;
    out.spec_num_accepted_tokens = accepted;
    if (accepted >= 0 && draft_tokens > 0) {
      out.spec_acceptance_rate = double(accepted) / double(draft_tokens);
    }
    if (accepted >= 0 && drafts > 0) {
      out.spec_acceptance_length = 1.0 + double(accepted) / drafts;
    }
  }
};

void collect(const RequestMetrics& m, Samples& s) {
  if (m.ttft_ms >= 0) {
    s.ttft.push_back(m.ttft_ms);
  }
  if (m.ttft_content_ms >= 0) s.ttft_content.push_back(m.ttft_content_ms);
  if (m.ttft_sched_ms >= 0) {
    s.ttft_sched.push_back(m.ttft_sched_ms);
  }
  s.coalesced += m.coalesced_events;
  if (m.tpot_ms >= 0) {
    s.tpot.push_back(m.tpot_ms);
  }
  if (m.e2el_ms >= 0) {
    s.e2el.push_back(m.e2el_ms);
  }
  if (m.e2el_sched_ms >= 0) {
    s.e2el_sched.push_back(m.e2el_sched_ms);
  }
  if (m.queue_delay_ms >= 0) {
    s.queue.push_back(m.queue_delay_ms);
  }
  if (m.decode_tok_s >= 0) {
    s.decode.push_back(m.decode_tok_s);
  }
  s.itl.insert(s.itl.end(), m.itl_ms.begin(), m.itl_ms.end());
  for (int32_t t : m.tokens_per_event) {
    s.tokens_per_event.push_back(t);
  }
}

// Per-second rates over the run window; goodput only when an SLO was given.
void fill_rates(LaneSummary& out, int64_t good_requests) {
  if (out.duration_s > 0) {
    out.request_throughput = double(out.completed) / out.duration_s;
    out.output_throughput = double(out.total_output_tokens) / out.duration_s;
    out.total_token_throughput =
        double(out.total_input_tokens + out.total_output_tokens) / out.duration_s;
  }
  if (out.slo.any()) {
    out.good_requests = good_requests;
    out.request_goodput = out.duration_s > 0 ? double(good_requests) / out.duration_s : 0.0;
  }
}

void describe_all(Samples&& s, LaneSummary& out) {
  out.ttft_ms = describe(std::move(s.ttft));
  out.ttft_content_ms = describe(std::move(s.ttft_content));
  out.coalesced_events = s.coalesced;
  if (!s.itl.empty())
    out.coalesced_event_share =
        static_cast<double>(s.coalesced) / static_cast<double>(s.itl.size());
  out.ttft_sched_ms = describe(std::move(s.ttft_sched));
  out.tpot_ms = describe(std::move(s.tpot));
  out.itl_ms = describe(std::move(s.itl));
  out.e2el_ms = describe(std::move(s.e2el));
  out.e2el_sched_ms = describe(std::move(s.e2el_sched));
  out.queue_delay_ms = describe(std::move(s.queue));
  out.decode_tok_s = describe(std::move(s.decode));
  out.tokens_per_event = describe(std::move(s.tokens_per_event));
}

void fill_run_window(const std::vector<const RequestRecord*>& all, LaneSummary& out,
                     int64_t& t0_ns) {
  int64_t first_sent = 0;
  int64_t last_done = 0;
  for (const auto* r : all) {
    if (r->result.t_sent_ns > 0 && (first_sent == 0 || r->result.t_sent_ns < first_sent)) {
      first_sent = r->result.t_sent_ns;
    }
    last_done = std::max(last_done, r->result.t_done_ns);
  }
  t0_ns = first_sent;
  out.duration_s =
      first_sent > 0 && last_done > first_sent ? double(last_done - first_sent) / kNsPerS : 0.0;
}

// Timings are measured; anything divided by token counts inherits their provenance.
void assign_provenance(LaneSummary& out, Provenance input_tokens, Provenance output_tokens,
                       bool peak_exact) {
  const Provenance derived =
      output_tokens == Provenance::Estimated ? Provenance::Estimated : Provenance::Measured;
  const Provenance total = input_tokens == Provenance::Estimated ? Provenance::Estimated : derived;
  out.provenance = {
      {"duration", Provenance::Measured},
      {"input_tokens", input_tokens},
      {"output_tokens", output_tokens},
      {"request_throughput", Provenance::Measured},
      {"output_throughput", derived},
      {"total_token_throughput", total},
      {"ttft", Provenance::Measured},
      {"ttft_sched", Provenance::Measured},
      {"e2el", Provenance::Measured},
      {"itl", Provenance::Measured},
      {"queue_delay", Provenance::Measured},
      {"tpot", derived},
      {"decode_tok_s", derived},
      {"tokens_per_event", out.tokens_per_event.count > 0 ? Provenance::Server : Provenance::None},
      {"request_goodput", out.slo.any() ? derived : Provenance::None},
      {"max_output_tokens_per_s", peak_exact ? derived : Provenance::Estimated},
      {"max_concurrent_requests", Provenance::Measured},
      {"prefix_cache_hit_rate",
       out.prefix_cache_hit_rate >= 0 ? Provenance::Server : Provenance::None},
      {"spec_acceptance", out.spec_acceptance_rate >= 0 ? Provenance::Server : Provenance::None},
  };
}

}  // namespace

const char* error_kind_key(net::ErrorKind kind) { return net::to_string(kind); }

LaneSummary summarize(const std::vector<RequestRecord>& records, const SloSpec& slo) {
  LaneSummary out;
  out.slo = slo;
  std::vector<const RequestRecord*> measured;  // non-warm-up
  for (const auto& r : records) {
    if (r.warmup) {
      ++out.warmups_excluded;
      continue;
    }
    keep_common(out.lane_id, r.lane_id, measured.empty());
    keep_common(out.experiment, r.experiment, measured.empty());
    keep_common(out.phase, r.phase, measured.empty());
    measured.push_back(&r);
  }
  int64_t t0_ns = 0;
  fill_run_window(measured, out, t0_ns);
  out.max_concurrent_requests = max_overlap(measured);

  std::vector<const RequestRecord*> done;
  std::vector<RequestMetrics> done_metrics;
  Samples samples;
  UsageTotals usage;
  ProvenanceMix input_prov, output_prov;
  int64_t good = 0;
  for (const auto* r : measured) {
    RequestMetrics m = compute_request_metrics(*r);
    if (!m.ok) {
      ++out.failed;
      ++out.errors_by_kind[error_kind_key(r->result.error)];
      continue;
    }
    ++out.completed;
    if (m.prompt_tokens >= 0) {
      out.total_input_tokens += m.prompt_tokens;
    }
    if (m.output_tokens >= 0) {
      out.total_output_tokens += m.output_tokens;
    }
    input_prov.add(m.prompt_tokens_provenance);
    output_prov.add(m.output_tokens_provenance);
    if (slo.any() && meets_slo(m, slo)) {
      ++good;
    }
    collect(m, samples);
    usage.add(*r, m);
    done.push_back(r);
    done_metrics.push_back(std::move(m));
  }
  fill_rates(out, good);
  describe_all(std::move(samples), out);
  usage.write(out);
  bool peak_exact = true;
  out.max_output_tokens_per_s = peak_tokens_per_s(done, done_metrics, t0_ns, peak_exact);

  assign_provenance(out, input_prov.result(), output_prov.result(), peak_exact);
  return out;
}

}  // namespace lb::metrics
