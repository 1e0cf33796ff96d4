#include "core/record/energy_record.h"

#include "core/record/json_member.h"

namespace lb::record {

std::optional<PhaseEnergyRecord> read_phase_energy(const nlohmann::json& energy) {
  if (!energy.is_object()) return std::nullopt;
  PhaseEnergyRecord e;
  e.source = member_text(energy, "source");
  e.unsupported = member_text(energy, "unsupported");
  e.refused = member_text(energy, "refused");
  e.joules = member_number(energy, "joules");
  e.joules_per_output_token = member_number(energy, "joules_per_output_token");
  e.output_tokens_per_joule = member_number(energy, "output_tokens_per_joule");
  e.mean_watts = member_number(energy, "mean_watts");
  e.window_s = member_number(energy, "window_s");
  return e;
}

std::optional<PhaseCostRecord> read_phase_cost(const nlohmann::json& cost) {
  if (!cost.is_object()) return std::nullopt;
  return PhaseCostRecord{member_number(cost, "usd_per_hour"),
                         member_number(cost, "usd_per_million_output_tokens")};
}

}  // namespace lb::record
