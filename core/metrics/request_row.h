#pragma once
// What the figures that depend on when requests ran (the requests in flight, a steady-state window,
// the per-request intervals) need of one request: its send and completion stamps and its
// per-request figures, 64 bytes instead of the whole record with its events and text.
#include <cstdint>
#include <vector>

#include "core/metrics/request_record.h"

namespace lb::metrics {

struct RequestMetrics;

struct RequestRow {
  int64_t t_sent_ns = 0;  // steady clock; 0 = never sent
  int64_t t_done_ns = 0;
  double ttft_ms = -1;  // as RequestMetrics: negative = not available
  double tpot_ms = -1;
  double e2el_ms = -1;
  double decode_tok_s = -1;
  int64_t output_tokens = -1;
  bool ok = false;
  bool warmup = false;
  char reserved[6] = {};  // no padding: every byte written to a spool is set
};
static_assert(sizeof(RequestRow) == 64);

RequestRow request_row(const RequestRecord& record, const RequestMetrics& metrics);
// Each record's row, in order (computes each record's metrics).
std::vector<RequestRow> request_rows(const std::vector<RequestRecord>& records);

}  // namespace lb::metrics
