#pragma once
// Builds the requests of an open-loop stage (a replayed trace, a request rate) ahead of their send
// time on a thread of its own, so the scheduler only hands a ready body over when it is due. A
// 126K-token trace prompt takes milliseconds to build; built when due, it held back every request
// scheduled at the same instant behind it. The look-ahead is bounded in bytes and in requests,
// and requests are built and taken in order (n = 0, 1, 2, ...).
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "core/run/drive/load_driver.h"

namespace lb::run {

struct PrefetchLimits {
  int64_t max_bytes_ahead = int64_t{64} << 20;  // bodies built and not yet taken
  int64_t max_requests_ahead = 4096;
};

class BodyPrefetcher {
 public:
  // Builds requests 0 .. COUNT-1 with REQUEST_AT(n, WARMUP), which must not be called by anyone
  // else while this lives (it is called on the prefetcher's thread).
  BodyPrefetcher(std::function<PlannedRequest(int64_t n, bool warmup)> request_at, bool warmup,
                 int64_t count, PrefetchLimits limits = {});
  ~BodyPrefetcher();  // stops building and joins
  BodyPrefetcher(const BodyPrefetcher&) = delete;
  BodyPrefetcher& operator=(const BodyPrefetcher&) = delete;

  // The next request in order; waits while it is being built.
  PlannedRequest take();
  // Waits until REQUESTS requests or BYTES of bodies are built ahead (or the look-ahead is full,
  // or every request is built), at most MAX_WAIT_NS and no longer than STOP stays false: the
  // stage starts its clock after, with its first sends ready.
  void wait_primed(int64_t requests, int64_t bytes, int64_t max_wait_ns,
                   const std::atomic<bool>& stop);
  int64_t built() const;  // requests built so far (taken or not)

 private:
  void work();
  bool full() const;  // under the lock

  std::function<PlannedRequest(int64_t, bool)> request_at_;
  const bool warmup_;
  const int64_t count_;
  const PrefetchLimits limits_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<PlannedRequest> ready_;
  int64_t bytes_ahead_ = 0;
  int64_t built_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace lb::run
