#include "core/run/experiments/phase_energy.h"

namespace lb::run {

void PhaseEnergyMeter::start() {
  if (started_) return;
  started_ = true;
  if (source_.usable()) before_ = read_energy(client_, endpoint_, source_, why_);
}

void PhaseEnergyMeter::finish() {
  if (!started_ || !source_.usable() || !why_.empty()) return;
  after_ = read_energy(client_, endpoint_, source_, why_);
}

metrics::PhaseEnergy PhaseEnergyMeter::energy(int64_t output_tokens) const {
  metrics::PhaseEnergy e;
  if (!source_.usable()) {
    e.unsupported = source_.unsupported;
    return e;
  }
  if (!started_) {
    e.source = source_.label;
    e.refused = "no measured request was sent";
    return e;
  }
  if (!why_.empty()) {
    e.source = source_.label;
    e.refused = "a reading failed: " + why_;
    return e;
  }
  e = metrics::energy_between(before_, after_, output_tokens);
  e.source = source_.label;
  return e;
}

}  // namespace lb::run
