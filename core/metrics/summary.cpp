#include "core/metrics/summary.h"

#include <algorithm>

#include "core/metrics/request_metrics.h"
#include "core/metrics/steady_state.h"
#include "core/metrics/summary_accumulator.h"
#include "core/metrics/summary_intervals.h"

namespace lb::metrics {
namespace {

constexpr double kNsPerS = 1e9;

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
  int64_t now = 0;
  int64_t peak = 0;
  for (const auto& [t, d] : in_flight_steps(recs)) {
    now += d;
    peak = std::max(peak, now);
  }
  return peak;
}

// Known values only (>= 0), as the summary's distributions take them.
void keep_samples(const RequestMetrics& m, RequestSamples& out) {
  auto keep = [](std::vector<double>& to, double v) {
    if (v >= 0) to.push_back(v);
  };
  keep(out.ttft_ms, m.ttft_ms);
  keep(out.tpot_ms, m.tpot_ms);
  keep(out.e2el_ms, m.e2el_ms);
  keep(out.decode_tok_s, m.decode_tok_s);
}

}  // namespace

const char* error_kind_key(net::ErrorKind kind) { return net::to_string(kind); }

LaneSummary summarize(const std::vector<RequestRecord>& records, const SloSpec& slo,
                      RequestSamples* samples) {
  SummaryAccumulator accumulator(slo);
  std::vector<const RequestRecord*> measured;  // non-warm-up
  std::vector<const RequestRecord*> done;
  std::vector<RequestMetrics> done_metrics;
  int64_t t0_ns = 0;
  for (const RequestRecord& r : records) {
    RequestMetrics m = compute_request_metrics(r);
    accumulator.add(r, m);
    if (r.warmup) continue;
    measured.push_back(&r);
    if (r.result.t_sent_ns > 0 && (t0_ns == 0 || r.result.t_sent_ns < t0_ns))
      t0_ns = r.result.t_sent_ns;
    if (!m.ok) continue;
    if (samples) keep_samples(m, *samples);
    done.push_back(&r);
    done_metrics.push_back(std::move(m));
  }
  LaneSummary out = accumulator.summary();
  out.max_concurrent_requests = max_overlap(measured);
  bool peak_exact = true;
  out.max_output_tokens_per_s = peak_tokens_per_s(done, done_metrics, t0_ns, peak_exact);
  if (!peak_exact) out.provenance["max_output_tokens_per_s"] = Provenance::Estimated;
  return out;
}

}  // namespace lb::metrics
