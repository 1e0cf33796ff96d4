#include "sim_watch.h"

#include <algorithm>
#include <chrono>

#include "core/metrics/prometheus_text.h"
#include "core/net/stream_client.h"

namespace lb::bench {

SimWatch::SimWatch(std::string metrics_url, int interval_ms)
    : url_(std::move(metrics_url)), interval_ms_(interval_ms), thread_([this] { run(); }) {}

SimWatch::~SimWatch() { stop(); }

void SimWatch::run() {
  net::StreamClient client;
  net::HttpRequest request;
  request.url = url_;
  request.method = "GET";
  request.dialect = net::Dialect::PlainText;
  request.timeouts.first_byte_ms = 5'000;
  request.timeouts.total_ms = 5'000;
  const auto interval = std::chrono::milliseconds(interval_ms_);
  auto next = std::chrono::steady_clock::now();
  while (!stop_.load()) {
    const net::StreamResult r = client.fetch(request);
    if (r.error == net::ErrorKind::None && r.http_status == 200) {
      const metrics::PrometheusSnapshot snapshot = metrics::parse_prometheus_text(r.body);
      Reading reading;
      reading.t_ns = r.t_done_ns;
      reading.finished = snapshot.sum("vllm:request_success_total").value_or(0);
      reading.in_engine = snapshot.sum("vllm:num_requests_running").value_or(0) +
                          snapshot.sum("vllm:num_requests_waiting").value_or(0);
      readings_.push_back(reading);
    }
    next += interval;
    std::this_thread::sleep_until(next);
  }
}

SimWatchFigures SimWatch::stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  SimWatchFigures f;
  f.readings = static_cast<int>(readings_.size());
  if (readings_.size() < 2) return f;
  const double base = readings_.front().finished;
  f.finished = readings_.back().finished - base;
  f.max_in_engine = 0;
  for (const Reading& r : readings_) f.max_in_engine = std::max(f.max_in_engine, r.in_engine);
  // From the last reading before the first finish to the first reading with every finish: the
  // rate is underestimated by at most two reading intervals over the whole span.
  size_t first = 0;
  while (first + 1 < readings_.size() && readings_[first + 1].finished == base) ++first;
  size_t last = first;
  while (last < readings_.size() && readings_[last].finished < readings_.back().finished) ++last;
  if (last < readings_.size() && readings_[last].t_ns > readings_[first].t_ns && f.finished > 0)
    f.completion_rate =
        f.finished / (static_cast<double>(readings_[last].t_ns - readings_[first].t_ns) / 1e9);
  return f;
}

}  // namespace lb::bench
