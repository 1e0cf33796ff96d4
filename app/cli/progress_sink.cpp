#include "progress_sink.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "core/net/printable_text.h"

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

namespace {

std::string phase_of(const run::RunProgress& p) {
  return p.lane_id + '\n' + p.experiment + '\n' + p.phase;
}

}  // namespace

ProgressSink::ProgressSink(bool quiet_info, std::chrono::milliseconds log_interval)
    : tty_(::isatty(STDERR_FILENO) == 1), quiet_info_(quiet_info), log_interval_(log_interval) {
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
  print_pending_locked();
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
  // Without a terminal, a phase's last state is kept for its own line before the next phase
  // replaces it.
  if (!tty_ && changed_ && phase_of(latest_) == printed_phase_ &&
      phase_of(progress) != printed_phase_)
    pending_.push_back(format_progress(latest_));
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
  std::cerr << prefix << net::printable_text(text) << '\n';
  std::cerr.flush();
}

void ProgressSink::clear_line_locked() {
  if (line_open_ && tty_) std::cerr << "\r\x1b[K";
  line_open_ = false;
}

void ProgressSink::print_pending_locked() {
  for (const std::string& line : pending_) std::cerr << net::printable_line(line) << '\n';
  if (!pending_.empty()) std::cerr.flush();
  pending_.clear();
}

void ProgressSink::print_line_locked() {
  const std::string line = format_progress(latest_);
  changed_ = false;
  printed_phase_ = phase_of(latest_);
  printed_at_ = std::chrono::steady_clock::now();
  if (tty_) {
    std::cerr << "\r\x1b[K" << net::printable_line(line);
    line_open_ = true;
  } else {
    std::cerr << net::printable_line(line) << '\n';
  }
  std::cerr.flush();
}

void ProgressSink::loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    cv_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stopping_; });
    if (stopping_) break;
    print_pending_locked();
    if (!changed_) continue;
    const bool due = tty_ || phase_of(latest_) != printed_phase_ ||
                     std::chrono::steady_clock::now() - printed_at_ >= log_interval_;
    if (due) print_line_locked();
  }
}

}  // namespace lb::cli
