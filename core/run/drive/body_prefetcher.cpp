#include "core/run/drive/body_prefetcher.h"

#include <chrono>
#include <exception>
#include <string>
#include <utility>

#include "core/files/background_thread.h"

namespace lb::run {
namespace {

int64_t bytes_of(const PlannedRequest& r) {
  return r.body ? static_cast<int64_t>(r.body->size()) : 0;
}

}  // namespace

BodyPrefetcher::BodyPrefetcher(std::function<PlannedRequest(int64_t, bool)> request_at, bool warmup,
                               int64_t count, PrefetchLimits limits)
    : request_at_(std::move(request_at)), warmup_(warmup), count_(count), limits_(limits) {
  thread_ = std::thread([this] {
    files::become_background_thread("lb-prefetch");
    work();
  });
}

BodyPrefetcher::~BodyPrefetcher() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

bool BodyPrefetcher::full() const {
  // One request is always allowed, however large: the look-ahead never stops the next send.
  return !ready_.empty() && (bytes_ahead_ >= limits_.max_bytes_ahead ||
                             static_cast<int64_t>(ready_.size()) >= limits_.max_requests_ahead);
}

void BodyPrefetcher::work() {
  for (int64_t n = 0; n < count_; ++n) {
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return stopping_ || !full(); });
      if (stopping_) return;
    }
    PlannedRequest r;
    try {
      r = request_at_(n, warmup_);  // the slow part, outside the lock
    } catch (const std::exception& e) {
      r.index = n;
      r.refused = std::string("the request could not be built: ") + e.what();
    }
    {
      std::lock_guard lock(mutex_);
      bytes_ahead_ += bytes_of(r);
      ready_.push_back(std::move(r));
      ++built_;
    }
    changed_.notify_all();
  }
}

PlannedRequest BodyPrefetcher::take() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return !ready_.empty() || built_ >= count_; });
  if (ready_.empty()) return {};  // asked for more than COUNT: nothing to send
  PlannedRequest r = std::move(ready_.front());
  ready_.pop_front();
  bytes_ahead_ -= bytes_of(r);
  lock.unlock();
  changed_.notify_all();
  return r;
}

void BodyPrefetcher::wait_primed(int64_t requests, int64_t bytes, int64_t max_wait_ns,
                                 const std::atomic<bool>& stop) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(max_wait_ns);
  std::unique_lock lock(mutex_);
  auto primed = [&] {
    return full() || built_ >= count_ || static_cast<int64_t>(ready_.size()) >= requests ||
           bytes_ahead_ >= bytes;
  };
  // In slices, so that a stop is seen within one.
  while (!primed() && !stop.load() && std::chrono::steady_clock::now() < deadline)
    changed_.wait_for(lock, std::chrono::milliseconds(20));
}

int64_t BodyPrefetcher::built() const {
  std::lock_guard lock(mutex_);
  return built_;
}

}  // namespace lb::run
