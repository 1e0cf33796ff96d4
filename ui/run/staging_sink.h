#pragma once
// The engine side of the thread boundary: RunSink callbacks (engine threads) move their values
// into a mutex-guarded batch and raise an atomic flag; the GUI thread takes the whole batch at its
// own pace (RunController's timer, <= 30 Hz). Nothing here touches a QObject.
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "run/run_sink.h"

namespace lb::ui {

struct RunOutcome {
  int exit_code = 0;
  bool interrupted = false;
  std::vector<std::string> errors;
  int64_t requests_written = 0;
};

struct StagedBatch {
  std::vector<metrics::RequestRecord> records;
  std::map<std::string, run::RunProgress> progress;  // latest per lane ("" = whole run)
  std::vector<std::pair<run::MessageLevel, std::string>> messages;
  std::map<std::string, run::ServerState> servers;  // latest per managed lane
  std::optional<RunOutcome> outcome;                // set once, when the run thread ends
  bool empty() const {
    return records.empty() && progress.empty() && messages.empty() && servers.empty() && !outcome;
  }
};

class StagingSink final : public run::RunSink {
 public:
  void on_request_done(const metrics::RequestRecord& record) override;
  void on_progress(const run::RunProgress& progress) override;
  void on_message(run::MessageLevel level, const std::string& text) override;
  void on_server_state(const run::ServerState& state) override;
  void finish(RunOutcome outcome);

  bool pending() const { return pending_.load(std::memory_order_acquire); }
  StagedBatch take();  // GUI thread: everything staged since the last take

 private:
  std::mutex mutex_;
  StagedBatch batch_;
  std::atomic<bool> pending_{false};
};

}  // namespace lb::ui
