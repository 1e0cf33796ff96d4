#pragma once
// What a running experiment tells its observer (the CLI's progress line, the GUI's controller).
// Every call may come from the engine's threads: implementations copy or move the values into
// their own staging and return at once. The GUI drains its staging at <= 30 Hz.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/metrics/request_record.h"
#include "core/record/run_summary.h"

namespace lb::run {

struct RunProgress {
  std::string lane_id;
  std::string experiment;
  std::string phase;
  int64_t done = 0;
  int64_t total = 0;  // 0 when bounded by duration only
  int64_t errors = 0;
  double output_tok_s = 0;  // recent aggregate, counting tokens not events
  double eta_s = -1;
};

enum class MessageLevel { Info, Warning, Error };

// A managed lane's server (core/run/launch/managed_server.h) as it moves through a run: starting
// (while the ready URL is awaited, with the seconds waited of the timeout), ready (port and pid),
// failed (why, with the last lines of its log) or stopped (how it exited). A plain value: the GUI
// stages it like a progress line. Secret env values are already redacted in every text.
struct ServerState {
  enum class Phase { Starting, Ready, Failed, Stopped };
  std::string lane_id;
  Phase phase = Phase::Starting;
  std::string command;  // as it runs, port filled in
  int port = 0;         // 0 when the lane does not use {port}
  int pid = 0;          // 0 before the process started
  double waited_s = 0;  // starting: seconds since start; ready: seconds it took
  double timeout_s = 0;
  std::string error;     // failed: why, then the log's last lines
  std::string exit;      // stopped or failed: "exit code 0", "signal 9", ...
  int exit_code = -1;    // -1 when it did not exit with a code
  std::string log_path;  // servers/<lane>.log in the run folder, "" when not kept
};
const char* to_string(ServerState::Phase phase);  // "starting", "ready", "failed", "stopped"

class RunSink {
 public:
  virtual ~RunSink() = default;
  virtual void on_request_done(const metrics::RequestRecord& record) = 0;
  virtual void on_progress(const RunProgress& progress) = 0;
  virtual void on_message(MessageLevel level, const std::string& text) = 0;
  // A managed lane's server changed state, or waited another second for its ready URL.
  virtual void on_server_state(const ServerState& /*state*/) {}
  // The plan's experiments as this run names them, in plan order, before the first one starts:
  // an experiment added to a run (--into) whose name is taken there runs as NAME-2, NAME-3
  // (core/run/folder/run_append.h), and its requests and progress carry that name.
  virtual void on_experiments_named(const std::vector<std::string>& /*names*/) {}
  // A gate check of a lane was scored (a gates experiment), as summary.json will record it.
  virtual void on_gate_result(const record::GateResult& /*result*/) {}
  // Experiment EXPERIMENT of the plan (its index there) is over on every lane, managed lanes and
  // performance gates included, and summary.json holds its section: the section as written.
  virtual void on_section_done(size_t /*experiment*/,
                               const record::ExperimentSection& /*section*/) {}
};

}  // namespace lb::run
