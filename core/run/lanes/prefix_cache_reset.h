#pragma once
// Emptying a lane's prefix cache, where its server has an endpoint for it: vLLM's
// POST /reset_prefix_cache (served in development mode, VLLM_SERVER_DEV_MODE=1) and SGLang's
// POST /flush_cache. Other servers have none: the reset is "unsupported", with the reason.
#include <string>

#include "core/net/stream_client.h"
#include "core/run/lanes/lane_endpoint.h"
#include "core/run/lanes/lane_probe.h"

namespace lb::run {

struct CacheReset {
  bool done = false;
  std::string endpoint;  // the path asked, "" when the server kind has none
  std::string note;      // why not, in plain words ("" when done)
};

// The endpoint for a server kind ("" for none).
std::string prefix_cache_reset_path(ServerKind kind);

// Asks the lane to empty its prefix cache. The note never quotes the server's body.
CacheReset reset_prefix_cache(net::StreamClient& client, const LaneEndpoint& lane, ServerKind kind);

}  // namespace lb::run
