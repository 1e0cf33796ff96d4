#include "core/metrics/summary.h"

#include "core/metrics/request_metrics.h"
#include "core/metrics/summary_accumulator.h"
#include "core/metrics/summary_intervals.h"
#include "core/metrics/summary_windows.h"

namespace lb::metrics {

const char* error_kind_key(net::ErrorKind kind) { return net::to_string(kind); }

LaneSummary summarize(const std::vector<RequestRecord>& records, const SloSpec& slo,
                      RequestSamples* samples) {
  SummaryAccumulator accumulator(slo);
  std::vector<RequestRow> measured;  // non-warm-up
  std::vector<const RequestRecord*> done;
  std::vector<RequestMetrics> done_metrics;
  int64_t t0_ns = 0;
  for (const RequestRecord& r : records) {
    RequestMetrics m = compute_request_metrics(r);
    accumulator.add(r, m);
    if (r.warmup) continue;
    measured.push_back(request_row(r, m));
    if (r.result.t_sent_ns > 0 && (t0_ns == 0 || r.result.t_sent_ns < t0_ns))
      t0_ns = r.result.t_sent_ns;
    if (!m.ok) continue;
    if (samples) keep_samples(measured.back(), *samples);
    done.push_back(&r);
    done_metrics.push_back(std::move(m));
  }
  LaneSummary out = accumulator.summary();
  out.max_concurrent_requests = max_overlap(measured);
  PeakWindow peak(t0_ns);
  bool peak_exact = true;
  for (size_t i = 0; i < done.size(); ++i)
    peak_exact &= event_tokens(*done[i], done_metrics[i],
                               [&](int64_t at_ns, double tokens) { peak.add(at_ns, tokens); });
  out.max_output_tokens_per_s = peak.peak();
  if (!peak_exact) out.provenance["max_output_tokens_per_s"] = Provenance::Estimated;
  return out;
}

}  // namespace lb::metrics
