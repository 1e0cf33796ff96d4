#pragma once
// Starting a simulator lane from a `sim:` base URL. The run layer turns
// {"base_url": "sim:fp8?time_scale=0.05"} into start_lane("fp8?time_scale=0.05") and uses the
// returned base_url; the lane stops when the LaneHandle goes out of scope.
#include <memory>
#include <string>
#include <string_view>

#include "server.h"
#include "sim_config.h"

namespace lb::sim {

class LaneHandle {
 public:
  LaneHandle() = default;
  explicit LaneHandle(std::unique_ptr<Server> server) : server_(std::move(server)) {}
  LaneHandle(LaneHandle&&) noexcept = default;
  LaneHandle& operator=(LaneHandle&&) noexcept = default;
  ~LaneHandle() = default;  // Server's destructor stops the lane

  explicit operator bool() const { return server_ != nullptr; }
  std::string base_url() const { return server_ ? server_->base_url() : std::string{}; }
  uint16_t port() const { return server_ ? server_->port() : 0; }
  const SimConfig* config() const { return server_ ? &server_->config() : nullptr; }
  void stop() { server_.reset(); }

 private:
  std::unique_ptr<Server> server_;
};

struct LaneStart {
  LaneHandle handle;
  std::string base_url;  // http://127.0.0.1:PORT/v1
  std::string error;     // non-empty when the spec is invalid or the lane could not start
};

// spec: "PROFILE[?key=value&...]", with or without a leading "sim:". Errors name the unknown
// profile or option. port 0 = any free port.
LaneStart start_lane(std::string_view spec, uint16_t port = 0);
// Same, from a ready config (e.g. with a trace_sink set in-process).
LaneStart start_lane(SimConfig config, uint16_t port = 0);

}  // namespace lb::sim
