#include "core/run/lanes/clock_offset.h"

#include <chrono>
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

std::optional<ClockOffset> measure_clock_offset(net::StreamClient& client, const LaneEndpoint& lane,
                                                const std::atomic<bool>& stop) {
  LaneProbe probe(client);
  std::optional<Reading> last = read_date(probe, lane);
  if (!last) return std::nullopt;
  const int64_t give_up_ms = last->received_ms + 1'200;
  while (!stop.load() && wall_ms_now() < give_up_ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const std::optional<Reading> next = read_date(probe, lane);
    if (!next) return std::nullopt;
    if (next->server_s > last->server_s) {
      // The server's clock read next->server_s + 0 ms at some moment after `last` was stamped
      // (not before last->sent_ms) and before `next` was answered.
      const double local_ms = 0.5 * double(last->sent_ms + next->received_ms);
      const double half_ms = 0.5 * double(next->received_ms - last->sent_ms);
      return ClockOffset{local_ms - double(next->server_s) * 1000.0, half_ms};
    }
    last = next;
  }
  // No turn seen (a stop, or a server whose Date stands still): one reading, to the second.
  const double local_ms = 0.5 * double(last->sent_ms + last->received_ms);
  return ClockOffset{local_ms - (double(last->server_s) + 0.5) * 1000.0,
                     500.0 + 0.5 * double(last->received_ms - last->sent_ms)};
}

nlohmann::json to_json(const std::optional<ClockOffset>& offset) {
  if (!offset) return {{"source", "none"}};
  return {{"offset_ms", offset->offset_ms},
          {"uncertainty_ms", offset->uncertainty_ms},
          {"source", "http-date"}};
}

}  // namespace lb::run
