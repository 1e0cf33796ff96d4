#pragma once
// The parts of a summary that need every request of the phase at once, whether the requests are
// in memory (summarize) or spooled (RecordSpool): the peak of 1-second output windows, the most
// requests in flight, and the per-request values behind the intervals.
#include <cstdint>
#include <vector>

#include "core/metrics/request_metrics.h"
#include "core/metrics/request_record.h"
#include "core/metrics/request_row.h"
#include "core/metrics/summary_intervals.h"

namespace lb::metrics {

// Output tokens in 1-second windows counted from T0 (the phase's first send, steady ns), fed one
// event at a time; peak() is the fullest window. Memory follows the phase's length in seconds.
class PeakWindow {
 public:
  explicit PeakWindow(int64_t t0_ns) : t0_ns_(t0_ns) {}
  void add(int64_t arrival_ns, double tokens);
  double peak() const;

 private:
  int64_t t0_ns_;
  std::vector<double> bins_;
};

// Calls emit(arrival_ns, tokens) for each event of a completed request: its own token count when
// the server gave one for every event, else the request's tokens spread evenly over its events
// (an estimate). False when the counts were spread.
template <class Emit>
bool event_tokens(const RequestRecord& r, const RequestMetrics& m, Emit&& emit) {
  const auto& events = r.result.events;
  if (events.empty()) return true;
  const bool known = m.tokens_per_event.size() == events.size();
  const double spread = m.output_tokens > 0 ? double(m.output_tokens) / double(events.size()) : 0.0;
  for (size_t e = 0; e < events.size(); ++e)
    emit(events[e].arrival_ns, known ? double(m.tokens_per_event[e]) : spread);
  return known;
}

// Most requests simultaneously between t_sent and t_done over ROWS (warm-ups left out). A request
// ending at the instant another starts does not overlap it.
int64_t max_overlap(const std::vector<RequestRow>& rows);

// The known (>= 0) TTFT, TPOT, E2EL and decode rate of a completed request, for its intervals.
void keep_samples(const RequestRow& row, RequestSamples& out);

}  // namespace lb::metrics
