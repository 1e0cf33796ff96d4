#pragma once
// The clients of a split lane (docs/fleet.md, "A split lane") meet at the start of each phase they
// share, through a folder they all see (the fleet's shared output folder): each writes when it
// arrived, and once all have, each starts at the same wall-clock moment, a little after the last
// arrival. No client talks to another; a client that never comes is waited for at most the
// plan's split.sync_timeout_s.
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

namespace lb::run {

class SplitBarrier {
 public:
  // ROOT: the shared folder (created when missing); TAG names the run (the plan's hash), so two
  // plans' clients never meet; CLIENT of CLIENTS is this one.
  SplitBarrier(std::string root, std::string tag, int64_t client, int64_t clients,
               double timeout_s);

  // Waits for every client at the meeting KEY (the phase's experiment, name and trial). Returns
  // the steady-clock stamp at which they all start, or nullopt with *why when one did not come in
  // time, the others already met without this one, a client's clock is more than a second ahead,
  // the folder cannot be written, or STOP was set. Once a meeting failed, every later one fails
  // at once: the clients are no longer in step.
  std::optional<int64_t> meet(const std::string& key, const std::atomic<bool>& stop,
                              std::string* why);

  // How far after the last arrival the clients start: time for each to see the last file.
  static constexpr int64_t kLeadNs = 300'000'000;
  // An arrival stamped further ahead of this machine's clock is a clock out of step.
  static constexpr int64_t kMaxAheadNs = 1'000'000'000;

 private:
  std::optional<int64_t> read_arrival(const std::string& relative) const;
  // Some client of the meeting in DIR left a file "<client>MARK": ".met" when it started from
  // the meeting (this one came too late, or runs again after its lane's clients did), ".gone"
  // when it gave up waiting.
  bool any_marked(const std::string& dir, const char* mark) const;

  std::string root_, tag_;
  int64_t client_, clients_;
  int64_t timeout_ns_;
  bool failed_ = false;
  int64_t meetings_ = 0;
};

}  // namespace lb::run
