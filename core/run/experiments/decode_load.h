#pragma once
// A background of long greedy decodes on one lane (docs/determinism.md, "Decode load"): STREAMS
// synthetic requests kept in flight, each replaced when it ends, until stop(). A determinism
// check runs its prompts one at a time in it, so each prompt meets a batch of decoding sequences
// rather than its own kind. The background's requests are counted, not recorded.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "core/record/determinism_floor.h"
#include "core/run/experiments/experiment.h"

namespace lb::run {

class DecodeLoad {
 public:
  // Starts the background; returns 300 ms after its first STREAMS requests are sent (or when it
  // ended).
  DecodeLoad(ExperimentContext& ctx, const LaneRuntime& lane, int64_t streams, int64_t max_tokens);
  ~DecodeLoad();
  DecodeLoad(const DecodeLoad&) = delete;
  DecodeLoad& operator=(const DecodeLoad&) = delete;

  // Stops the background (its requests in flight are cancelled) and says what it did.
  record::BackgroundLoadRecord stop();

 private:
  class Counter;
  std::unique_ptr<Counter> counter_;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable started_cv_;
  bool started_ = false;
  int64_t streams_ = 0;
  int64_t max_tokens_ = 0;
  std::thread thread_;
};

}  // namespace lb::run
