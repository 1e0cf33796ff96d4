// "Energy and cost" of a load experiment: each lane's GPU energy per output token, output tokens
// per joule, mean power and cost per million output tokens per phase (docs/metrics.md, "Energy",
// "Cost"), with intervals over trials where the experiment ran several.
#include <algorithm>
#include <cmath>

#include "core/record/run_summary.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

// Three significant digits: energy per token spans 1e-3 J (a fast simulator) to 10 J.
int decimals_for(double v) {
  if (!std::isfinite(v) || v <= 0) return 2;
  const int magnitude = static_cast<int>(std::floor(std::log10(v)));
  return std::clamp(2 - magnitude, 0, 6);
}

// The figure with its interval over trials, "[n/a (1 trial)]" or nothing when none. Over trials
// the figure is the interval's estimate, the mean of the per-trial figures, so it lies inside.
std::string with_interval(const record::PhaseRecord& phase, const char* key, double value) {
  const record::Interval* i = phase.interval(key);
  const bool over_trials = i != nullptr && i->lo >= 0;
  if (over_trials && !std::isnan(i->estimate())) value = i->estimate();
  const int decimals = decimals_for(value);
  const std::string text = format_number(value, decimals);
  if (over_trials)
    return text + " [" + format_number(i->lo, decimals) + ", " + format_number(i->hi, decimals) +
           "]";
  const std::string why = phase.interval_unavailable(key);
  return why.empty() ? text : text + " [" + why + "]";
}

std::vector<std::string> energy_cells(const record::PhaseRecord& phase,
                                      const std::optional<record::PhaseEnergyRecord>& energy) {
  if (!energy) return {"not recorded", "", "", "", ""};
  if (!energy->unsupported.empty()) return {"unsupported: " + energy->unsupported, "", "", "", ""};
  if (!energy->refused.empty())
    return {energy->source + ": refused, " + energy->refused, "", "", "", ""};
  return {
      energy->source,
      with_interval(phase, "joules_per_output_token", energy->joules_per_output_token),
      format_number(energy->output_tokens_per_joule, decimals_for(energy->output_tokens_per_joule)),
      format_number(energy->mean_watts, 0), format_number(energy->window_s, 1)};
}

std::string cost_cell(const record::PhaseRecord& phase) {
  const std::optional<record::PhaseCostRecord> cost = phase.cost();
  if (!cost) return "no cost_per_hour";
  return with_interval(phase, "usd_per_million_output_tokens", cost->usd_per_million_output_tokens);
}

}  // namespace

ReportTable energy_cost_table(const record::ExperimentSection& e,
                              const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = "Energy and cost" + (e.name.empty() ? "" : " (" + e.name + ")");
  t.header = {"Lane",           "Phase",  "Energy source", "J / output token",
              "Output tok / J", "Mean W", "Window (s)",    "$ / 1M output tokens"};
  t.note =
      "Energy is DCGM's DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION summed over the lane's GPUs, read "
      "after the warm-ups and after the last request of each phase; no total spans a counter "
      "reset. Cost is the lane's cost_per_hour over the phase's output throughput. With trials, "
      "J / output token and $ / 1M are the mean of the per-trial figures, with their interval "
      "over trials; output tok / J, mean W and the window are over all trials together.";
  bool any = false;
  for (const auto& lane : lanes) {
    const record::LaneRecord* section = e.lane(lane);
    if (section == nullptr) continue;
    for (const record::PhaseRecord& phase : section->phases) {
      const std::optional<record::PhaseEnergyRecord> energy = phase.energy();
      any = any || (energy && !std::isnan(energy->joules)) || phase.cost().has_value();
      std::vector<std::string> row{lane, phase.name};
      for (std::string& cell : energy_cells(phase, energy)) row.push_back(std::move(cell));
      row.push_back(cost_cell(phase));
      t.rows.push_back(std::move(row));
    }
  }
  if (!any) t.rows.clear();  // no lane measured energy or named a cost: nothing to show
  return t;
}

}  // namespace lb::report
