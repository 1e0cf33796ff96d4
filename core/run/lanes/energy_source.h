#pragma once
// Where a lane's GPU energy is read (docs/metrics.md, "Energy"): the endpoint its plan names,
// else its own /metrics when the probe found DCGM's energy counter there, else nowhere
// ("unsupported", with the reason).
#include <string>
#include <vector>

#include "core/metrics/energy_counter.h"
#include "core/net/stream_client.h"
#include "core/plan/plan.h"
#include "core/run/lanes/lane_endpoint.h"
#include "core/run/lanes/lane_probe.h"

namespace lb::run {

struct EnergySourceUse {
  std::string url;    // "" = none
  std::string label;  // how the record names it (never a credential)
  std::vector<std::string> gpus;
  bool lane_metrics = false;  // the lane's own /metrics: asked with the lane's headers
  std::string unsupported;    // why there is none
  bool usable() const { return !url.empty(); }
};

EnergySourceUse energy_source_of(const plan::Lane& lane, const LaneEndpoint& endpoint,
                                 const ProbeReport& probe);

// One reading, stamped with the steady clock when the answer came. Empty with `why` filled
// when the endpoint did not answer or has no usable counter. A separate endpoint is asked
// without the lane's headers: its key is for its server only.
metrics::EnergyReading read_energy(net::StreamClient& client, const LaneEndpoint& endpoint,
                                   const EnergySourceUse& source, std::string& why);

}  // namespace lb::run
