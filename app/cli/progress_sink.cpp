#include "progress_sink.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

namespace lb::cli {

std::string format_progress(const run::RunProgress& p) {
  char buf[256];
  std::string eta = "--";
  if (p.eta_s >= 0) {
    const auto s = static_cast<long long>(p.eta_s + 0.5);
    char e[32];
    std::snprintf(e, sizeof e, "%lld:%02lld", s / 60, s % 60);
    eta = e;
  }
  const std::string total = p.total > 0 ? std::to_string(p.total) : "?";
  std::snprintf(buf, sizeof buf, "[%s] %s %s  %lld/%s done  %lld errors  %.1f tok/s  ETA %s",
                p.lane_id.c_str(), p.experiment.c_str(), p.phase.c_str(),
                static_cast<long long>(p.done), total.c_str(), static_cast<long long>(p.errors),
                p.output_tok_s, eta.c_str());
  return buf;
}

ProgressSink::ProgressSink(bool quiet_info)
    : tty_(::isatty(STDERR_FILENO) == 1), quiet_info_(quiet_info) {
  thread_ = std::thread([this] { loop(); });
}

ProgressSink::~ProgressSink() { finish(); }

void ProgressSink::finish() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
  std::lock_guard lock(mutex_);
  if (changed_) print_line_locked();
  if (line_open_ && tty_) std::cerr << '\n';
  line_open_ = false;
  std::cerr.flush();
}

void ProgressSink::on_request_done(const metrics::RequestRecord& /*record*/) {
  requests_done_.fetch_add(1, std::memory_order_relaxed);
}

void ProgressSink::on_progress(const run::RunProgress& progress) {
  std::lock_guard lock(mutex_);
  latest_ = progress;
  changed_ = true;
}

void ProgressSink::on_message(run::MessageLevel level, const std::string& text) {
  if (level == run::MessageLevel::Info && quiet_info_) return;
  std::lock_guard lock(mutex_);
  clear_line_locked();
  const char* prefix = level == run::MessageLevel::Error     ? "error: "
                       : level == run::MessageLevel::Warning ? "warning: "
                                                             : "";
  std::cerr << prefix << text << '\n';
  std::cerr.flush();
}

void ProgressSink::clear_line_locked() {
  if (line_open_ && tty_) std::cerr << "\r\x1b[K";
  line_open_ = false;
}

void ProgressSink::print_line_locked() {
  const std::string line = format_progress(latest_);
  changed_ = false;
  if (tty_) {
    std::cerr << "\r\x1b[K" << line;
    line_open_ = true;
  } else {
    std::cerr << line << '\n';
  }
  std::cerr.flush();
}

void ProgressSink::loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    cv_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stopping_; });
    if (!stopping_ && changed_) print_line_locked();
  }
}

}  // namespace lb::cli
