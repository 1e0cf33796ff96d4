#pragma once
// A server process LaneBench starts for a managed lane: spawned without a shell in a process
// group of its own (so a stop reaches every process it forks, and a terminal's Ctrl-C does
// not), its stdout and stderr copied line by line to a log file with secret values redacted.
#include <sys/types.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/plan/environment.h"

namespace lb::run {

struct ServerSpawn {
  std::vector<std::string> argv;                                  // argv[0] is looked up in PATH
  plan::Environment inherited = plan::Environment::of_process();  // what the server inherits
  std::vector<std::pair<std::string, std::string>> env;           // added to `inherited`
  std::string log_path;                                           // "" = output discarded
  std::vector<std::string> secrets;                               // redacted from the log
};

struct ServerExit {
  bool exited = false;           // false while running
  int exit_code = -1;            // when it exited normally
  int signal = 0;                // when a signal ended it
  std::string describe() const;  // "exit code 1", "killed by SIGKILL"
};

struct StopOutcome {
  ServerExit exit;
  bool killed_after_grace = false;  // ignored the stop signal; the group got SIGKILL
};

class ServerProcess {
 public:
  // nullptr with `error` set when the program cannot be started (not found, not executable).
  static std::unique_ptr<ServerProcess> spawn(const ServerSpawn& spec, std::string* error);
  ~ServerProcess();  // SIGKILL to the group if stop() was not called
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  pid_t pid() const { return pid_; }  // also the process group id
  // Reaps the process when it has exited (never blocks).
  ServerExit poll();
  // `signal` to the group, up to grace_s for the server to exit, then SIGKILL to the group.
  StopOutcome stop(int signal, double grace_s);
  // The last `lines` lines of its output (redacted), for error messages.
  std::string output_tail(size_t lines) const;

 private:
  ServerProcess() = default;
  void copy_output();
  void finish_output();

  pid_t pid_ = -1;
  int out_fd_ = -1;
  int log_fd_ = -1;
  std::vector<std::string> secrets_;
  ServerExit exit_;
  bool stopped_ = false;
  std::atomic<bool> stop_reading_{false};
  mutable std::mutex tail_mutex_;
  std::string tail_;  // the last bytes of output
  std::thread reader_;
};

}  // namespace lb::run
