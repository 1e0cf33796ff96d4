#pragma once
// lb::sim::Server: one simulated vLLM lane on loopback. start() binds 127.0.0.1 (port 0 picks a
// free port) and runs the lane on its own I/O thread; stop() (or the destructor) ends it.
//
//   lb::sim::SimConfig config;
//   config.profile = *lb::sim::builtin_profile("fp8");
//   config.time_scale = 0.05;
//   lb::sim::Server server(config);
//   uint16_t port = server.start();   // http://127.0.0.1:<port>/v1
#include <cstdint>
#include <memory>
#include <string>

#include "sim_config.h"

namespace lb::sim {

class Server {
 public:
  explicit Server(SimConfig config);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Throws std::runtime_error when the port cannot be bound or the trace file not opened.
  uint16_t start(uint16_t port = 0);
  void stop();
  bool running() const;

  uint16_t port() const;
  std::string base_url() const;  // http://127.0.0.1:PORT/v1
  const SimConfig& config() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lb::sim
