#pragma once
// The CLI's RunSink: a live progress line on stderr, printed by its own thread so engine threads
// only store the latest values and return. On a terminal the line is rewritten in place about
// four times a second. Otherwise (a log file, CI) each phase gets a line when it starts and one
// with its last state when it ends, and in between a line at most every `log_interval`.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/run/run_sink.h"

namespace lb::cli {

class ProgressSink : public run::RunSink {
 public:
  explicit ProgressSink(bool quiet_info = false,
                        std::chrono::milliseconds log_interval = std::chrono::seconds(10));
  ~ProgressSink() override;  // stops the printer, ends the line
  void on_request_done(const metrics::RequestRecord& record) override;
  void on_progress(const run::RunProgress& progress) override;
  void on_message(run::MessageLevel level, const std::string& text) override;
  void finish();  // stop refreshing and end the progress line

 private:
  void loop();
  void print_line_locked();
  void print_pending_locked();
  void clear_line_locked();

  const bool tty_;
  const bool quiet_info_;
  const std::chrono::milliseconds log_interval_;
  std::mutex mutex_;
  std::condition_variable cv_;
  run::RunProgress latest_;
  bool changed_ = false;
  bool line_open_ = false;
  bool stopping_ = false;
  std::vector<std::string> pending_;  // ended phases' last lines, not yet printed (no terminal)
  std::string printed_phase_;         // the phase of the last line printed
  std::chrono::steady_clock::time_point printed_at_;
  std::atomic<int64_t> requests_done_{0};
  std::thread thread_;
};

// "12/64 done, 0 errors, 1234.5 tok/s, ETA 0:12" with lane, experiment and phase in front.
std::string format_progress(const run::RunProgress& p);

}  // namespace lb::cli
