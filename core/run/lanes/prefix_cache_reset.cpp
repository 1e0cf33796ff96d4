#include "core/run/lanes/prefix_cache_reset.h"

namespace lb::run {

std::string prefix_cache_reset_path(ServerKind kind) {
  switch (kind) {
    case ServerKind::Vllm:
    case ServerKind::LanebenchSim:
      return "/reset_prefix_cache";
    case ServerKind::Sglang:
      return "/flush_cache";
    default:
      return "";
  }
}

CacheReset reset_prefix_cache(net::StreamClient& client, const LaneEndpoint& lane,
                              ServerKind kind) {
  CacheReset out;
  out.endpoint = prefix_cache_reset_path(kind);
  if (out.endpoint.empty()) {
    out.note = std::string("the server (") + metrics::to_string(kind) +
               ") has no endpoint that empties its prefix cache";
    return out;
  }
  const net::StreamResult r = LaneProbe(client).plain(lane, lane.root_url(out.endpoint), "POST");
  if (r.error != net::ErrorKind::None) {
    out.note = "POST " + out.endpoint + " failed: " + net::to_string(r.error);
  } else if (r.http_status == 404 || r.http_status == 405) {
    out.note = "the server answered POST " + out.endpoint + " with " +
               std::to_string(r.http_status) +
               (kind == ServerKind::Vllm ? " (vLLM serves it with VLLM_SERVER_DEV_MODE=1)" : "");
  } else if (r.http_status < 200 || r.http_status >= 300) {
    out.note =
        "the server answered POST " + out.endpoint + " with " + std::to_string(r.http_status);
  } else {
    out.done = true;
  }
  return out;
}

}  // namespace lb::run
