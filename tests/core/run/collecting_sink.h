#pragma once
// A RunSink that keeps what it is told, for assertions.
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "core/run/run_sink.h"

namespace lb::test {

class CollectingSink : public lb::run::RunSink {
 public:
  void on_request_done(const lb::metrics::RequestRecord& r) override {
    std::lock_guard lock(mutex);
    done.push_back(r.index);
    if (r.warmup) ++warmups;
  }
  void on_progress(const lb::run::RunProgress& p) override {
    std::lock_guard lock(mutex);
    progress.push_back(p);
  }
  void on_message(lb::run::MessageLevel level, const std::string& text) override {
    std::lock_guard lock(mutex);
    messages.push_back({level, text});
  }
  void on_gate_result(const lb::record::GateResult& result) override {
    std::lock_guard lock(mutex);
    gates.push_back(result);
  }
  bool has_message_containing(const std::string& needle) {
    std::lock_guard lock(mutex);
    for (const auto& m : messages)
      if (m.second.find(needle) != std::string::npos) return true;
    return false;
  }

  std::mutex mutex;
  std::vector<int64_t> done;
  int warmups = 0;
  std::vector<lb::run::RunProgress> progress;
  std::vector<std::pair<lb::run::MessageLevel, std::string>> messages;
  std::vector<lb::record::GateResult> gates;
};

}  // namespace lb::test
