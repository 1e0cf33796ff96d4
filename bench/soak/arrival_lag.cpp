#include "arrival_lag.h"

#include <algorithm>

namespace lb::bench {

ArrivalLag::ArrivalLag() : buckets_(kBuckets, 0) {}

void ArrivalLag::watch(const std::string& request_id) {
  std::lock_guard lock(mutex_);
  entries_[request_id];
}

void ArrivalLag::on_trace(const sim::TraceRecord& r) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(r.request_id);
  if (it == entries_.end()) return;  // not watched (a faulted request, or already matched)
  if (r.kind == "token") it->second.token_sent_ns.push_back(r.sent_ns);
  if (r.kind == "done") it->second.done = true;
}

bool ArrivalLag::try_match(const std::string& request_id,
                           const std::vector<net::EventArrival>& events) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(request_id);
  if (it == entries_.end()) return true;
  if (!it->second.done) return false;
  const auto& sent = it->second.token_sent_ns;
  if (sent.size() != events.size()) {
    ++totals_.count_mismatches;
  } else {
    for (size_t i = 0; i < sent.size(); ++i) add_lag_locked(events[i].arrival_ns - sent[i]);
    ++totals_.requests;
  }
  entries_.erase(it);
  return true;
}

void ArrivalLag::forget(const std::string& request_id) {
  std::lock_guard lock(mutex_);
  entries_.erase(request_id);
}

size_t ArrivalLag::watched() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

void ArrivalLag::add_lag_locked(int64_t lag_ns) {
  if (totals_.events == 0 || lag_ns > max_lag_ns_) max_lag_ns_ = lag_ns;
  if (totals_.events == 0 || lag_ns < min_lag_ns_) min_lag_ns_ = lag_ns;
  ++totals_.events;
  const int64_t bucket = std::max<int64_t>(lag_ns, 0) / kBucketNs;
  ++buckets_[static_cast<size_t>(std::min<int64_t>(bucket, kBuckets - 1))];
}

// Upper edge of the bucket holding the p-th percentile: never below the true value, at most one
// bucket (10 us) above it; negative lags count as 0.
double ArrivalLag::percentile_ms_locked(double p) const {
  if (totals_.events == 0) return 0;
  const auto rank = static_cast<int64_t>(p / 100.0 * static_cast<double>(totals_.events - 1));
  int64_t seen = 0;
  for (size_t i = 0; i < buckets_.size(); ++i) {
    seen += buckets_[i];
    if (seen > rank) return static_cast<double>((static_cast<int64_t>(i) + 1) * kBucketNs) / 1e6;
  }
  return static_cast<double>(max_lag_ns_) / 1e6;
}

LagFigures ArrivalLag::figures() const {
  std::lock_guard lock(mutex_);
  LagFigures f = totals_;
  f.p50_ms = percentile_ms_locked(50);
  f.p99_ms = percentile_ms_locked(99);
  f.max_ms = static_cast<double>(max_lag_ns_) / 1e6;
  f.min_ms = static_cast<double>(min_lag_ns_) / 1e6;
  return f;
}

}  // namespace lb::bench
