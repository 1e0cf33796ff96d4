#pragma once
// One request as another tool recorded it (seconds on the tool's own clock), turned into a
// RequestRecord whose events reproduce the tool's first-token time and inter-event gaps, so
// compute_request_metrics() and summarize() apply LaneBench's definitions to it unchanged.
#include <cstdint>
#include <string>
#include <vector>

#include "core/metrics/request_record.h"

namespace lb::interop {

struct ToolRequest {
  double send_s = 0;    // when the tool sent it (any epoch; only differences matter)
  double queue_s = -1;  // time the tool held it before sending (client-side queue), -1 unknown
  double ttft_s = -1;   // first token after send; < 0 when no token arrived
  std::vector<double> gaps_s;  // between consecutive events after the first
  double latency_s = -1;       // the tool's end-to-end latency, -1 unknown
  int64_t prompt_tokens = -1;
  int64_t output_tokens = -1;
  std::string error;  // empty when the request succeeded; URLs in it become "<url>"
};

// The tool's error text mapped to the closest error kind (rate limit, timeout, connect,
// HTTP status), StreamError otherwise.
net::ErrorKind classify_tool_error(const std::string& message);

// Times are placed on a steady-clock-like line where `t0_s` (the tool's first send) becomes 1 s,
// so every timestamp is positive as the run layer expects.
metrics::RequestRecord make_record(const ToolRequest& request, double t0_s, int64_t index);

}  // namespace lb::interop
