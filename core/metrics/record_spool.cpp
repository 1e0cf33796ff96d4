#include "core/metrics/record_spool.h"

#include <algorithm>

#include "core/metrics/request_metrics.h"
#include "core/metrics/summary_windows.h"

namespace lb::metrics {

RecordSpool::RecordSpool(SloSpec slo) : accumulator_(slo, 0, ValueStorage::Spooled) {}

void RecordSpool::add(const RequestRecord& record) {
  ++added_;
  const RequestMetrics m = compute_request_metrics(record);
  accumulator_.add(record, m);
  if (record.warmup) return;
  rows_.append(request_row(record, m));
  const int64_t sent = record.result.t_sent_ns;
  if (sent > 0 && (t0_ns_ == 0 || sent < t0_ns_)) t0_ns_ = sent;
  last_done_ns_ = std::max(last_done_ns_, record.result.t_done_ns);
  if (!m.ok) return;
  peak_exact_ &= event_tokens(record, m, [this](int64_t at_ns, double tokens) {
    events_.append(EventTokens{at_ns, tokens});
  });
}

std::vector<RequestRow> RecordSpool::rows() const {
  std::vector<RequestRow> out;
  out.reserve(static_cast<size_t>(rows_.size()));
  rows_.for_each([&](const RequestRow& row) { out.push_back(row); });
  return out;
}

LaneSummary RecordSpool::summarize(const std::vector<RequestRow>& measured,
                                   RequestSamples* samples) const {
  LaneSummary out = accumulator_.summary();
  out.max_concurrent_requests = max_overlap(measured);
  if (samples != nullptr)
    for (const RequestRow& row : measured)
      if (row.ok) keep_samples(row, *samples);
  PeakWindow peak(t0_ns_);
  events_.for_each([&](const EventTokens& e) { peak.add(e.arrival_ns, e.tokens); });
  out.max_output_tokens_per_s = peak.peak();
  if (!peak_exact_) out.provenance["max_output_tokens_per_s"] = Provenance::Estimated;
  return out;
}

std::string RecordSpool::memory_fallback_reason() const {
  if (rows_.memory_fallback()) return rows_.fallback_reason();
  if (events_.memory_fallback()) return events_.fallback_reason();
  return accumulator_.spool_fallback_reason();
}

}  // namespace lb::metrics
