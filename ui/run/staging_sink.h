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

#include "core/run/run_sink.h"

namespace lb::ui {

struct RunOutcome {
  int exit_code = 0;
  bool interrupted = false;
  std::vector<std::string> errors;
  int64_t requests_written = 0;
  // The run's summary as written to summary.json, so the page never reads back the file of a
  // run it just ran; empty when the run could not start.
  record::RunSummary summary;
  std::vector<std::string> summary_damage;  // what of it could not be read (none from this version)
  std::vector<std::string> sweep_lines;     // "Lane L, concurrency sweep: ..." per swept lane
};

struct StagedBatch {
  std::vector<metrics::RequestRecord> records;
  std::map<std::string, run::RunProgress> progress;  // latest per lane ("" = whole run)
  std::vector<std::pair<run::MessageLevel, std::string>> messages;
  std::map<std::string, run::ServerState> servers;  // latest per managed lane
  std::vector<record::GateResult> gates;            // gate checks scored, in order
  // Experiments over, by their index in the plan, with their sections as written.
  std::vector<std::pair<size_t, record::ExperimentSection>> sections_done;
  // The experiments' names in the run (on_experiments_named), once, before their records.
  std::optional<std::vector<std::string>> experiment_names;
  std::optional<RunOutcome> outcome;  // set once, when the run thread ends
  bool empty() const {
    return records.empty() && progress.empty() && messages.empty() && servers.empty() &&
           gates.empty() && sections_done.empty() && !outcome;
  }
};

class StagingSink final : public run::RunSink {
 public:
  void on_request_done(const metrics::RequestRecord& record) override;
  void on_progress(const run::RunProgress& progress) override;
  void on_message(run::MessageLevel level, const std::string& text) override;
  void on_server_state(const run::ServerState& state) override;
  void on_gate_result(const record::GateResult& result) override;
  void on_section_done(size_t experiment, const record::ExperimentSection& section) override;
  void on_experiments_named(const std::vector<std::string>& names) override;
  void finish(RunOutcome outcome);

  bool pending() const { return pending_.load(std::memory_order_acquire); }
  StagedBatch take();  // GUI thread: everything staged since the last take

 private:
  std::mutex mutex_;
  StagedBatch batch_;
  std::atomic<bool> pending_{false};
};

}  // namespace lb::ui
