#pragma once
// Request records with the timings of a served model: a closed loop of C streams per level, each
// request sent as the one before it on its stream finished; TTFT grows with the level (prefill
// queueing), the per-stream decode rate falls with it (batch slowdown); inter-event gaps vary
// around the decode step with occasional long ones (a prefill of another request interleaved)
// and rare coalesced events (two events read at once).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/metrics/request_record.h"

namespace lb::bench {

struct LaneModel {
  std::string id;     // "bf16", "fp8", "fp8-mtp3"
  std::string model;  // what the server says it serves
  double ttft_base_ms = 150;
  double ttft_per_stream_ms = 4;   // extra TTFT per concurrent stream
  double step_per_s = 60;          // decode steps per second of one stream at concurrency 1
  double batch_slowdown = 0.01;    // step time grows by this factor per concurrent stream
  std::vector<double> acceptance;  // per draft position; empty = one token per step
};

// bf16, fp8 and fp8-mtp3, in plan order.
std::vector<LaneModel> lane_models();

struct PhaseRequest {
  std::string experiment;
  std::string phase;
  int64_t index = 0;
  bool warmup = false;
  int64_t prompt_tokens = 1024;
  int64_t output_tokens = 64;
  std::string content;  // the answer text (regression); empty for throughput
};

// One closed-loop phase's clock: C streams, each free again when its last request finished.
class ClosedLoop {
 public:
  ClosedLoop(int64_t concurrency, int64_t start_ns);
  // The stream that is free first and when; the caller sends there.
  int64_t next_send_ns();
  void finished(int64_t done_ns);
  int64_t end_ns() const;

 private:
  std::vector<int64_t> free_at_ns_;
  size_t current_ = 0;
};

class RequestSynth {
 public:
  explicit RequestSynth(uint64_t seed) : rng_(seed) {}

  // A finished request of LANE sent at SCHED_NS with CONCURRENCY streams in flight. About
  // FAILURE_RATE of them fail.
  metrics::RequestRecord make(const LaneModel& lane, const PhaseRequest& request,
                              int64_t concurrency, int64_t sched_ns, double failure_rate);

 private:
  double uniform() { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_); }
  double lognormal(double median, double sigma);
  int32_t tokens_of_step(const LaneModel& lane);
  void add_events(const LaneModel& lane, const PhaseRequest& request, int64_t concurrency,
                  int64_t cut_after_events, net::StreamResult& r);
  void fail_before_stream(net::StreamResult& r);

  std::mt19937_64 rng_;
};

}  // namespace lb::bench
