#pragma once
// Plans whose lanes start the real lanebench-sim as a child process (managed lanes), and checks
// on the process groups those servers ran in, for the managed lane tests.
#include <signal.h>

#include <chrono>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "test_paths.h"

namespace lb::test {

// A launch block that starts lanebench-sim with `profile`, fast, on the picked port.
inline nlohmann::json sim_launch(const std::string& profile, double grace_s = 3) {
  return {
      {"command", {sim_path(), "--profile", profile, "--port", "{port}", "--time-scale", "0.05"}},
      {"ready", {{"url", "http://127.0.0.1:{port}/health"}, {"timeout_s", 20}}},
      {"stop", {{"signal", "SIGTERM"}, {"grace_s", grace_s}}}};
}

inline nlohmann::json managed_lane(const std::string& id, nlohmann::json launch) {
  return {{"id", id}, {"base_url", "http://127.0.0.1:{port}/v1"}, {"launch", std::move(launch)}};
}

inline nlohmann::json small_throughput() {
  return {{"kind", "throughput"}, {"concurrency", {1, 4}}, {"requests", 8},
          {"warmups", 1},         {"input_tokens", 512},   {"output_tokens", 32}};
}

inline bool text_contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Whether no process of group `pgid` is left, waiting up to `wait_ms` for it to go.
inline bool process_group_gone(pid_t pgid, int wait_ms = 5'000) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
  for (;;) {
    if (::kill(-pgid, 0) == -1 && errno == ESRCH) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace lb::test
