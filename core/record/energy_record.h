#pragma once
// A phase's GPU energy and cost, as summary.json records them ("energy" and "cost" in the phase,
// docs/metrics.md, "Energy", "Cost"). Read tolerantly: a member of another type reads as absent
// (NaN or ""), never a throw.
#include <cmath>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace lb::record {

struct PhaseEnergyRecord {
  std::string source;       // where it was read
  std::string unsupported;  // set: the lane has no energy source (why)
  std::string refused;      // set: the readings could not give a total (why)
  double joules = NAN;
  double joules_per_output_token = NAN;
  double output_tokens_per_joule = NAN;
  double mean_watts = NAN;
  double window_s = NAN;
  // A total was read (neither unsupported nor refused, and a number of joules).
  bool measured() const { return unsupported.empty() && refused.empty() && !std::isnan(joules); }
};

struct PhaseCostRecord {
  double usd_per_hour = NAN;
  double usd_per_million_output_tokens = NAN;  // NaN when the phase made no output
};

// The phase's "energy" object; nullopt when it is not an object (energy was not asked for).
std::optional<PhaseEnergyRecord> read_phase_energy(const nlohmann::json& energy);
// The phase's "cost" object; nullopt when it is not an object (the lane named no cost).
std::optional<PhaseCostRecord> read_phase_cost(const nlohmann::json& cost);

}  // namespace lb::record
