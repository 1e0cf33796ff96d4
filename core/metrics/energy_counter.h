#pragma once
// GPU energy over a phase from DCGM's cumulative counter DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION
// (mJ since the driver loaded, one sample per GPU), read before and after the measured requests
// (docs/metrics.md, "Energy"). Every figure here has Provenance::Server.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/prometheus_text.h"

namespace lb::metrics {

inline constexpr const char* kDcgmEnergyCounter = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION";

// One reading: the counter of each GPU, by its `UUID` label (else `Hostname:gpu`).
struct EnergyReading {
  std::map<std::string, double> millijoules_by_gpu;
  int64_t taken_ns = 0;               // steady clock, when the answer came
  std::optional<int64_t> sampled_ms;  // the samples' own timestamp (the latest), when given
};

// The reading of the GPUs named in `gpus` (matched against `gpu` or `UUID`; empty = every GPU).
// Empty with `why` filled when the counter is absent or a named GPU is not in the snapshot.
EnergyReading read_dcgm_energy(const PrometheusSnapshot& snapshot,
                               const std::vector<std::string>& gpus, std::string& why);

// A phase's energy, or why it has none.
struct PhaseEnergy {
  std::string source;       // where it was read ("the lane's /metrics", a URL)
  std::string unsupported;  // set: the lane has no energy source (why)
  std::string refused;      // set: the readings cannot give a total (why)
  std::vector<std::string> gpus;
  double joules = 0;
  double window_s = 0;
  std::string window_from = "the readings";  // or "the samples' timestamps"
  int64_t output_tokens = 0;
  bool measured() const { return unsupported.empty() && refused.empty(); }
};

// after - before over the same GPUs, over the window between the readings, or between the
// samples' timestamps when both carry them. Refused when a GPU's counter went down (a driver
// reload or GPU reset between the readings: no total across a reset), when the GPU sets
// differ, when the window is empty, or when the counter did not move while tokens were made
// (an exporter that had not refreshed it).
PhaseEnergy energy_between(const EnergyReading& before, const EnergyReading& after,
                           int64_t output_tokens);
// Several trials' energies of one phase pooled: joules, windows and tokens summed; refused or
// unsupported when any trial was.
PhaseEnergy pooled_energy(const std::vector<PhaseEnergy>& trials);

// {"source", "counter", "gpus", "window_s", "joules", "joules_per_output_token",
//  "output_tokens_per_joule", "mean_watts", "provenance"}, or {"source", "unsupported"} /
// {"source", "refused"}.
nlohmann::json to_json(const PhaseEnergy& energy);

}  // namespace lb::metrics
