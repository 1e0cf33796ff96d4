#pragma once
// The server of one managed lane (a lane with a launch block) through its life in a run: picks
// the port for "{port}", starts the command with its log in servers/<lane>.log, waits until the
// ready URL answers 200 (a progress line every few seconds; on failure the log's last lines in
// the error), and stops it with the lane's signal, then SIGKILL to the whole process group after
// the grace period. record() is the server's evidence for summary.json.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/net/stream_client.h"
#include "core/plan/plan.h"
#include "core/run/launch/server_process.h"
#include "core/run/run_sink.h"

namespace lb::run {

// A free TCP port on 127.0.0.1 (bound, read and released), or 0.
int pick_free_loopback_port();

class ManagedServer {
 public:
  // The server inherits `env` (plus its launch block's variables).
  ManagedServer(plan::Lane lane, std::string run_dir, RunSink& sink, net::StreamClient& client,
                const std::atomic<bool>& stop, plan::Environment env);
  ~ManagedServer();  // stops the server if it is still up

  // Starts the server and waits until it is ready. Returns false with error() naming the lane
  // when it cannot start, exits, or is not ready in time.
  bool start();
  // The lane as it is reached: base_url with the chosen port.
  const plan::Lane& lane() const { return lane_; }
  void stop();
  const std::string& error() const { return error_; }
  nlohmann::json record() const { return record_; }

 private:
  bool wait_until_ready();
  void fail(const std::string& status, const std::string& why);
  // Tells the sink the server's state (run_sink.h's ServerState) from the record.
  void report(ServerState::Phase phase, double waited_s = 0);

  plan::Lane lane_;
  plan::LaunchSpec launch_;  // with the port filled in
  std::string run_dir_;
  std::string log_relative_;
  RunSink& sink_;
  net::StreamClient& client_;
  const std::atomic<bool>& stop_;
  std::vector<std::string> secrets_;
  plan::Environment env_;
  std::unique_ptr<ServerProcess> process_;
  std::string error_;
  nlohmann::json record_;
  int port_ = 0;
  std::string exit_text_;
  int exit_code_ = -1;
};

}  // namespace lb::run
