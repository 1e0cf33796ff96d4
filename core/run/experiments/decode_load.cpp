#include "core/run/experiments/decode_load.h"

#include <chrono>

#include "core/run/drive/synthetic_requests.h"
#include "core/run/experiments/pass_counters.h"

namespace lb::run {

// Counts the background's requests; nothing of them reaches the run's sink or folder.
class DecodeLoad::Counter final : public RunSink {
 public:
  void on_request_done(const metrics::RequestRecord&) override {}
  void on_progress(const RunProgress&) override {}
  void on_message(MessageLevel, const std::string&) override {}
  void count(const metrics::RequestRecord& record) {
    (record.result.error == net::ErrorKind::None ? completed : failed).fetch_add(1);
  }
  std::atomic<int64_t> completed{0};
  std::atomic<int64_t> failed{0};
};

DecodeLoad::DecodeLoad(ExperimentContext& ctx, const LaneRuntime& lane, int64_t streams,
                       int64_t max_tokens)
    : counter_(std::make_unique<Counter>()), streams_(streams), max_tokens_(max_tokens) {
  LoadPhase phase = ctx.prepared(lane_phase(ctx, lane, "decode-load-background"));
  phase.concurrency = static_cast<int>(streams);
  // Bounded by stop(), and by a day should nothing call it.
  phase.duration_ns = int64_t{24} * 3600 * 1'000'000'000;
  ChatRequestOptions options;
  options.model = lane.endpoint.model;
  options.max_tokens = max_tokens;
  options.ignore_eos = lane.probe.supports_ignore_eos();  // long decodes, whatever the text says
  options.server = lane.probe.kind;
  phase.request_at =
      synthetic_requests(256, name_seed(phase.experiment + "/decode-load"), streams, options);
  phase.on_measured_start = [this] {
    std::lock_guard lock(mutex_);
    started_ = true;
    started_cv_.notify_all();
  };
  net::StreamClient& client = ctx.client();
  thread_ = std::thread([this, &client, phase = std::move(phase)] {
    LoadDriver driver(client, *counter_, stop_);
    driver.run(phase, [](const metrics::RequestRecord&) {});
    std::lock_guard lock(mutex_);
    started_ = true;  // ended before it began: nobody waits for it
    started_cv_.notify_all();
  });
  std::unique_lock lock(mutex_);
  started_cv_.wait(lock, [this] { return started_; });
  lock.unlock();
  // Let the first requests reach the engine and start decoding before the checked prompts
  // arrive.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
}

DecodeLoad::~DecodeLoad() {
  if (thread_.joinable()) stop();
}

record::BackgroundLoadRecord DecodeLoad::stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  return {static_cast<double>(streams_), static_cast<double>(max_tokens_),
          static_cast<double>(counter_->completed.load()),
          static_cast<double>(counter_->failed.load())};
}

}  // namespace lb::run
