#pragma once
// Scenarios of lanebench-bench-client: the StreamClient against the loopback ReplayServer, which
// stamps the steady_clock time of every write. Both run in one process, on one clock.
#include <cstdint>
#include <vector>

namespace lb::bench {

struct FidelityConfig {
  int concurrency = 1;
  int events_per_stream = 200;
  int64_t event_interval_us = 5000;  // a decoding model at 200 events/s per stream
  int top_logprobs = 0;  // > 0: every chunk carries its token's logprobs with this top-K
  // With top_logprobs: send the same number of bytes per event, but as an SSE comment line in
  // front of the plain chunk, which the client frames and skips. The bytes without the logprobs'
  // reading: what the transport alone costs.
  bool logprobs_as_comment = false;
};

struct FidelityResult {
  int concurrency = 0;
  int64_t events = 0;
  int failed_requests = 0;
  double p50_error_ms = 0;  // client arrival - server send, per event
  double p99_error_ms = 0;
  double max_error_ms = 0;
  double p99_t_sent_to_server_ms = 0;  // t_sent -> server has the whole request
  double cpu_us_per_event = 0;         // client I/O thread CPU time / events
  std::vector<double> errors_ms;       // every event's arrival error
};

struct ThroughputConfig {
  int concurrency = 64;
  int writes_per_stream = 400;
  int events_per_write = 64;  // the server batches events into writes to outrun the client
};

struct ThroughputResult {
  int concurrency = 0;
  int64_t events = 0;
  int failed_requests = 0;
  double seconds = 0;
  double events_per_s = 0;
  double cpu_us_per_event = 0;
};

FidelityResult run_fidelity(const FidelityConfig& config);
ThroughputResult run_throughput(const ThroughputConfig& config);

// Linear-interpolation percentile (numpy's default) of unsorted values; p in [0, 100].
double percentile(std::vector<double> values, double p);

}  // namespace lb::bench
