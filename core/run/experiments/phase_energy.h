#pragma once
// A lane's GPU energy around one phase's measured requests: read when the warm-ups are done
// and again when the last request has finished (docs/metrics.md, "Energy").
#include <string>

#include "core/metrics/energy_counter.h"
#include "core/run/lanes/energy_source.h"

namespace lb::run {

class PhaseEnergyMeter {
 public:
  PhaseEnergyMeter(net::StreamClient& client, const LaneEndpoint& endpoint, EnergySourceUse source)
      : client_(client), endpoint_(endpoint), source_(std::move(source)) {}

  // The reading before the measured requests; only the first call reads.
  void start();
  bool started() const { return started_; }
  // The reading after them.
  void finish();
  // The energy between the two readings over `output_tokens`, or why there is none.
  metrics::PhaseEnergy energy(int64_t output_tokens) const;

 private:
  net::StreamClient& client_;
  const LaneEndpoint& endpoint_;
  EnergySourceUse source_;
  bool started_ = false;
  metrics::EnergyReading before_, after_;
  std::string why_;  // the first failed reading
};

}  // namespace lb::run
