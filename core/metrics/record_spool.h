#pragma once
// A phase's finished records folded as they arrive, in memory that does not grow with the phase:
// the summary's running figures and the values behind its percentiles (a spooled
// SummaryAccumulator), each measured request's row (RequestRow) and each event's stamp and tokens
// go to unnamed files on disk (ValueSpool), and the record itself is dropped. summarize() equals
// metrics::summarize() over the same records, field for field; at the end the rows are read back
// once (64 bytes a request, for the requests in flight) and the events once (the output windows).
#include <cstdint>
#include <string>
#include <vector>

#include "core/metrics/request_record.h"
#include "core/metrics/request_row.h"
#include "core/metrics/summary.h"
#include "core/metrics/summary_accumulator.h"
#include "core/metrics/summary_intervals.h"
#include "core/metrics/value_spool.h"

namespace lb::metrics {

class RecordSpool {
 public:
  explicit RecordSpool(SloSpec slo = {});

  void add(const RequestRecord& record);            // in the order the records finished
  int64_t size() const { return added_; }           // warm-ups included
  int64_t first_send_ns() const { return t0_ns_; }  // over measured requests; 0 = none sent
  int64_t last_done_ns() const { return last_done_ns_; }
  // With `samples`, also the per-request values behind the headline figures' intervals. ROWS are
  // rows(), read once by the caller who needs them too.
  LaneSummary summarize(const std::vector<RequestRow>& rows,
                        RequestSamples* samples = nullptr) const;
  LaneSummary summarize(RequestSamples* samples = nullptr) const {
    return summarize(rows(), samples);
  }
  // The measured requests' rows, in the order they finished (for steady_state_of()).
  std::vector<RequestRow> rows() const;
  // Empty while everything is on disk; otherwise why some of it is kept in memory (the figures
  // stay exact).
  std::string memory_fallback_reason() const;

 private:
  struct EventTokens {
    int64_t arrival_ns;
    double tokens;
  };
  SummaryAccumulator accumulator_;
  ValueSpool<RequestRow> rows_;
  ValueSpool<EventTokens> events_;
  int64_t added_ = 0;
  int64_t t0_ns_ = 0;
  int64_t last_done_ns_ = 0;
  bool peak_exact_ = true;
};

}  // namespace lb::metrics
