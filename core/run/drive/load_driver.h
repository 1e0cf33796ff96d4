#pragma once
// LoadDriver runs one phase of load against one lane through the shared StreamClient. The calling
// thread is the scheduler: it submits at the scheduled times (open loop) or whenever a slot frees
// (closed loop) and receives completions from the I/O thread through a locked queue, so there is
// no thread per request and no work on the I/O thread beyond moving the result.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/metrics/record_spool.h"
#include "core/metrics/request_record.h"
#include "core/metrics/summary.h"
#include "core/net/steady_clock.h"
#include "core/net/stream_client.h"
#include "core/run/drive/arrival_schedule.h"
#include "core/run/lanes/lane_endpoint.h"
#include "core/run/run_sink.h"

namespace lb::run {

struct PlannedRequest {
  int64_t index = 0;  // prompt index (texts order)
  std::shared_ptr<const std::string> body;
  int64_t expected_prompt_tokens = -1;  // the client's own estimate, -1 unknown
  metrics::RequestMedia media;          // the images and videos in the body
  int64_t max_tokens = 0;               // the body's max_tokens; 0 = unknown (no token cap)
  // Non-empty: the request is not sent, and is recorded as refused with this reason (e.g. its
  // media exceed the lane's limit).
  std::string refused;
};

struct LoadPhase {
  std::string experiment;
  std::string phase;  // "c5", "r2.0", "greedy", ...
  const LaneEndpoint* lane = nullptr;
  std::string url;
  net::Dialect dialect = net::Dialect::OpenAiChat;
  net::Timeouts timeouts;
  // Request n (0-based) of the measured part, or of the warm-ups when warmup is true; warm-ups
  // should use prompts of their own so they do not pre-fill a cache for the measured ones.
  std::function<PlannedRequest(int64_t n, bool warmup)> request_at;
  int64_t count = 0;        // measured requests; 0 = bounded by duration_ns only
  int64_t duration_ns = 0;  // no new measured request is sent after this (0 = no limit)
  int64_t warmups = 0;      // run first, at the same load, recorded but excluded from aggregates
  int64_t warmup_duration_ns = 0;  // no new warm-up is sent after this (0 = no limit)
  // A steady-clock stamp after which no request, warm-up or measured, is sent (0 = none): a
  // bound over both stages, where the two durations each count from their own stage's start.
  int64_t deadline_ns = 0;
  int concurrency = 1;                    // max requests in flight; 0 = unlimited (open loop only)
  std::optional<ArrivalOptions> arrival;  // set = open loop at that rate
  // Non-empty = open loop at exactly these offsets from the phase start (ns, non-decreasing),
  // one measured request each, e.g. a replayed trace; count and duration_ns are then ignored.
  std::vector<int64_t> schedule_ns;
  // Called on the scheduler thread once the warm-ups are done and the first bodies built (and a
  // split lane's clients have met), before the first measured request (e.g. to scrape server
  // counters that must not include the warm-ups).
  std::function<void()> on_measured_start;
  int64_t trial = 0;  // copied into every record (RequestRecord::trial)
  // Set: the measured records are folded into a spool on disk as they finish
  // (PhaseOutcome::spool) instead of kept in PhaseOutcome::records, so a phase of any length runs
  // in memory that does not grow with it; its summary counts goodput against these objectives.
  std::optional<metrics::SloSpec> spool_slo;
  // One client of a lane whose load several clients share (a split lane, docs/fleet.md): this
  // client sends request n (warm-ups and measured, closed and open loop) only when n mod
  // split_clients is split_client, and holds its share of `concurrency` in flight.
  int64_t split_client = 0;
  int64_t split_clients = 1;
  // Set: called once the first bodies are built, before the measured stage's clock starts; it
  // returns the steady-clock stamp at which all the lane's clients start together (the stage
  // waits for it), or nullopt when they cannot (the stage then sends nothing and is interrupted).
  std::function<std::optional<int64_t>()> common_start_ns;
  // Sent with every request besides the lane's own headers (e.g. x-sim-trial to a simulator).
  std::vector<std::pair<std::string, std::string>> extra_headers;
};

struct PhaseOutcome {
  // Measured, finished (not cancelled), in finish order; empty when the phase spooled them.
  std::vector<metrics::RequestRecord> records;
  std::shared_ptr<metrics::RecordSpool> spool;  // set when LoadPhase::spool_slo was
  // The phase's summary, once the experiment has made it (one trial).
  std::optional<metrics::LaneSummary> summary;
  int64_t cancelled = 0;
  int64_t errors = 0;
  int64_t first_send_ns = 0;  // steady_clock
  int64_t last_done_ns = 0;
  int max_in_flight = 0;  // the concurrency actually reached
  bool interrupted = false;
};

class LoadDriver {
 public:
  // Called on the scheduler thread for every finished request, warm-ups included.
  using RecordHandler = std::function<void(const metrics::RequestRecord&)>;

  LoadDriver(net::StreamClient& client, RunSink& sink, const std::atomic<bool>& stop)
      : client_(client), sink_(sink), stop_(stop) {}

  PhaseOutcome run(const LoadPhase& phase, const RecordHandler& on_record);

 private:
  net::StreamClient& client_;
  RunSink& sink_;
  const std::atomic<bool>& stop_;
};

}  // namespace lb::run
