#include "core/metrics/request_row.h"

#include "core/metrics/request_metrics.h"

namespace lb::metrics {

RequestRow request_row(const RequestRecord& record, const RequestMetrics& m) {
  RequestRow row;
  row.t_sent_ns = record.result.t_sent_ns;
  row.t_done_ns = record.result.t_done_ns;
  row.ttft_ms = m.ttft_ms;
  row.tpot_ms = m.tpot_ms;
  row.e2el_ms = m.e2el_ms;
  row.decode_tok_s = m.decode_tok_s;
  row.output_tokens = m.output_tokens;
  row.ok = m.ok;
  row.warmup = record.warmup;
  return row;
}

std::vector<RequestRow> request_rows(const std::vector<RequestRecord>& records) {
  std::vector<RequestRow> rows;
  rows.reserve(records.size());
  for (const RequestRecord& r : records) rows.push_back(request_row(r, compute_request_metrics(r)));
  return rows;
}

}  // namespace lb::metrics
