#pragma once
// How far this machine's clock is from a lane's server, read from the HTTP Date header: the
// header counts whole seconds, so the probe asks until the server's second turns over, and the
// turn lies between two answers a few milliseconds apart. Shards of a plan (docs/fleet.md) record
// it, so a merge can put every shard's requests on one time line and refuse clocks too far apart.
#include <atomic>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/net/stream_client.h"
#include "core/run/lanes/lane_endpoint.h"

namespace lb::run {

struct ClockOffset {
  double offset_ms = 0;       // this machine's clock minus the server's
  double uncertainty_ms = 0;  // the true offset is within offset_ms +- uncertainty_ms
};

// nullopt when the server sends no Date header (or an unreadable one). Takes up to about 2.4 s:
// a second turn of the Date a second after the first shows that the server stamps each answer;
// a server that refreshes a cached Date (uvicorn, under vLLM and SGLang) is known to a second.
std::optional<ClockOffset> measure_clock_offset(net::StreamClient& client, const LaneEndpoint& lane,
                                                const std::atomic<bool>& stop);

// {"offset_ms", "uncertainty_ms", "source": "http-date"}, or {"source": "none"}.
nlohmann::json to_json(const std::optional<ClockOffset>& offset);

}  // namespace lb::run
