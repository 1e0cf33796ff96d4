#include "core/run/lanes/energy_source.h"

#include "core/metrics/prometheus_text.h"
#include "core/net/steady_clock.h"

namespace lb::run {

EnergySourceUse energy_source_of(const plan::Lane& lane, const LaneEndpoint& endpoint,
                                 const ProbeReport& probe) {
  EnergySourceUse use;
  if (lane.energy && lane.energy->metrics_url != plan::kEnergyFromLane) {
    use.url = lane.energy->metrics_url;
    use.label = lane.energy->metrics_url;
    use.gpus = lane.energy->gpus;
    return use;
  }
  const bool named = lane.energy.has_value();
  if (named) use.gpus = lane.energy->gpus;
  const bool has_counter =
      probe.metrics_available &&
      !metrics::parse_prometheus_text(probe.metrics_text).find(metrics::kDcgmEnergyCounter).empty();
  if (!has_counter) {
    const std::string counter = metrics::kDcgmEnergyCounter;
    use.unsupported = named
                          ? "the lane's /metrics has no " + counter
                          : "no energy source named, and no " + counter + " on the lane's /metrics";
    return use;
  }
  use.url = endpoint.root_url("/metrics");
  use.label = "the lane's /metrics";
  use.lane_metrics = true;
  return use;
}

metrics::EnergyReading read_energy(net::StreamClient& client, const LaneEndpoint& endpoint,
                                   const EnergySourceUse& source, std::string& why) {
  LaneEndpoint bare;
  bare.id = endpoint.id;
  const LaneEndpoint& asked = source.lane_metrics ? endpoint : bare;
  const net::StreamResult r = LaneProbe(client).plain(asked, source.url, "GET");
  if (r.error != net::ErrorKind::None || r.http_status != 200) {
    why = source.label + " did not answer (" +
          (r.error != net::ErrorKind::None ? std::string(net::to_string(r.error))
                                           : "HTTP " + std::to_string(r.http_status)) +
          ")";
    return {};
  }
  metrics::EnergyReading reading =
      metrics::read_dcgm_energy(metrics::parse_prometheus_text(r.body), source.gpus, why);
  reading.taken_ns = steady_now_ns();
  return reading;
}

}  // namespace lb::run
