#pragma once
// The CLI's RunSink: a live progress line on stderr (rewritten in place with '\r' on a terminal,
// plain lines otherwise), refreshed about four times a second by its own thread so engine threads
// only store the latest values and return.
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "run/run_sink.h"

namespace lb::cli {

class ProgressSink : public run::RunSink {
 public:
  explicit ProgressSink(bool quiet_info = false);
  ~ProgressSink() override;  // stops the printer, ends the line
  void on_request_done(const metrics::RequestRecord& record) override;
  void on_progress(const run::RunProgress& progress) override;
  void on_message(run::MessageLevel level, const std::string& text) override;
  void finish();  // stop refreshing and end the progress line

 private:
  void loop();
  void print_line_locked();
  void clear_line_locked();

  const bool tty_;
  const bool quiet_info_;
  std::mutex mutex_;
  std::condition_variable cv_;
  run::RunProgress latest_;
  bool changed_ = false;
  bool line_open_ = false;
  bool stopping_ = false;
  std::atomic<int64_t> requests_done_{0};
  std::thread thread_;
};

// "12/64 done, 0 errors, 1234.5 tok/s, ETA 0:12" with lane, experiment and phase in front.
std::string format_progress(const run::RunProgress& p);

}  // namespace lb::cli
