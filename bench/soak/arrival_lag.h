#pragma once
// Per-event arrival lag (client arrival - simulator send, both steady_clock) for requests that
// finished normally, matched by x-request-id against the simulator's trace. Only requests being
// watched hold memory and lags go into a fixed histogram, so a long soak stays flat.
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/net/http_types.h"
#include "sim/sim_config.h"

namespace lb::bench {

struct LagFigures {
  int64_t events = 0;            // token events compared
  int64_t requests = 0;          // requests whose events were compared
  int64_t count_mismatches = 0;  // requests whose event count differed from the trace
  double p50_ms = 0, p99_ms = 0, max_ms = 0;
  double min_ms = 0;  // negative: the client read an event before the server's send call returned
};

class ArrivalLag {
 public:
  ArrivalLag();
  void watch(const std::string& request_id);  // before the request is sent
  void on_trace(const sim::TraceRecord& r);   // simulator I/O thread
  // For a request that finished OK: compares its events once the trace holds its [DONE] and
  // stops watching it. False while the trace is still behind.
  bool try_match(const std::string& request_id, const std::vector<net::EventArrival>& events);
  void forget(const std::string& request_id);
  size_t watched() const;
  LagFigures figures() const;

 private:
  struct Entry {
    std::vector<int64_t> token_sent_ns;
    bool done = false;
  };
  static constexpr int64_t kBucketNs = 10'000;  // 10 us
  static constexpr size_t kBuckets = 20'000;    // up to 200 ms; the last bucket holds the rest

  void add_lag_locked(int64_t lag_ns);
  double percentile_ms_locked(double p) const;

  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  std::vector<int64_t> buckets_;
  LagFigures totals_;
  int64_t max_lag_ns_ = 0;
  int64_t min_lag_ns_ = 0;
};

}  // namespace lb::bench
