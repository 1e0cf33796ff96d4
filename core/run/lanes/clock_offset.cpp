#include "core/run/lanes/clock_offset.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "core/run/lanes/lane_probe.h"
#include "core/text/ascii_text.h"
#include "core/text/http_date.h"

namespace lb::run {
namespace {

int64_t wall_ms_now() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// One answer's Date (seconds) and when it was asked and answered by this machine's clock (ms).
struct Reading {
  int64_t server_s = 0;
  int64_t sent_ms = 0;
  int64_t received_ms = 0;
};

std::optional<Reading> read_date(LaneProbe& probe, const LaneEndpoint& lane) {
  Reading r;
  r.sent_ms = wall_ms_now();
  const net::StreamResult result = probe.plain(lane, lane.api_url("/models"), "GET");
  r.received_ms = wall_ms_now();
  if (result.error != net::ErrorKind::None) return std::nullopt;
  for (const auto& [name, value] : result.response_headers) {
    if (text::ascii_lower(name) != "date") continue;
    const auto s = text::parse_http_date(value);
    if (!s) return std::nullopt;
    r.server_s = *s;
    return r;
  }
  return std::nullopt;
}

}  // namespace

namespace {

// When the server's Date turned to a new second by this machine's clock (ms, the middle of the
// two answers around the turn) and half the span it could lie in; nullopt when no turn came before
// GIVE_UP_MS or a request failed. LAST is the answer to start from, and ends as the last one read.
struct Turn {
  int64_t server_s = 0;
  double local_ms = 0;
  double half_ms = 0;
};
std::optional<Turn> next_turn(LaneProbe& probe, const LaneEndpoint& lane, Reading& last,
                              int64_t give_up_ms, const std::atomic<bool>& stop) {
  while (!stop.load() && wall_ms_now() < give_up_ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const std::optional<Reading> next = read_date(probe, lane);
    if (!next) return std::nullopt;
    // The server's clock read next->server_s + 0 ms at some moment after `last` was stamped
    // (not before last.sent_ms) and before `next` was answered.
    if (next->server_s > last.server_s) {
      const Turn turn{next->server_s, 0.5 * double(last.sent_ms + next->received_ms),
                      0.5 * double(next->received_ms - last.sent_ms)};
      last = *next;
      return turn;
    }
    last = *next;
  }
  return std::nullopt;
}

}  // namespace

std::optional<ClockOffset> measure_clock_offset(net::StreamClient& client, const LaneEndpoint& lane,
                                                const std::atomic<bool>& stop) {
  LaneProbe probe(client);
  std::optional<Reading> first = read_date(probe, lane);
  if (!first) return std::nullopt;
  Reading last = *first;
  // One reading, to the second, until a turn says more.
  ClockOffset coarse{
      0.5 * double(first->sent_ms + first->received_ms) - (double(first->server_s) + 0.5) * 1000.0,
      1000.0 + 0.5 * double(first->received_ms - first->sent_ms)};
  const auto one = next_turn(probe, lane, last, last.received_ms + 1'200, stop);
  if (!one) return coarse;
  ClockOffset offset{one->local_ms - double(one->server_s) * 1000.0, one->half_ms};
  // A server that stamps each answer turns its Date a second after the first turn. One that
  // refreshes a cached Date now and then (uvicorn: about once a second, at no fixed point of the
  // second) turns it late by up to a second: then the offset is known to a second only.
  const auto two = next_turn(probe, lane, last, last.received_ms + 1'200, stop);
  const bool steady =
      two && two->server_s == one->server_s + 1 &&
      std::abs(two->local_ms - one->local_ms - 1000.0) <= one->half_ms + two->half_ms + 20.0;
  if (!steady) offset.uncertainty_ms = std::max(offset.uncertainty_ms, 1000.0);
  return offset;
}

nlohmann::json to_json(const std::optional<ClockOffset>& offset) {
  if (!offset) return {{"source", "none"}};
  return {{"offset_ms", offset->offset_ms},
          {"uncertainty_ms", offset->uncertainty_ms},
          {"source", "http-date"}};
}

}  // namespace lb::run
