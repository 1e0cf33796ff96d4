// "Energy and cost" of a load experiment: each lane's GPU energy per output token, output tokens
// per joule, mean power and cost per million output tokens per phase (docs/metrics.md, "Energy",
// "Cost"), with intervals over trials where the experiment ran several.
#include <algorithm>
#include <cmath>

#include "core/record/run_summary.h"
#include "core/report/json_access.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

// Three significant digits: energy per token spans 1e-3 J (a fast simulator) to 10 J.
int decimals_for(double v) {
  if (!std::isfinite(v) || v <= 0) return 2;
  const int magnitude = static_cast<int>(std::floor(std::log10(v)));
  return std::clamp(2 - magnitude, 0, 6);
}

// The figure with its interval over trials, "[n/a (1 trial)]" or nothing when none. Over trials
// the figure is the interval's estimate, the mean of the per-trial figures, so it lies inside.
std::string with_interval(const json& phase, const char* key, double value) {
  const json& i = json_at(phase, {"intervals", key});
  const bool over_trials = i.is_object() && number_at(i, {"lo"}, -1) >= 0;
  if (over_trials) value = number_at(i, {"estimate"}, value);
  const int decimals = decimals_for(value);
  const std::string text = format_number(value, decimals);
  if (over_trials)
    return text + " [" + format_number(number_at(i, {"lo"}), decimals) + ", " +
           format_number(number_at(i, {"hi"}), decimals) + "]";
  const std::string why = string_at(phase, {"intervals_unavailable", key});
  return why.empty() ? text : text + " [" + why + "]";
}

std::vector<std::string> energy_cells(const json& phase) {
  const json& energy = json_at(phase, {"energy"});
  if (!energy.is_object()) return {"not recorded", "", "", "", ""};
  if (const std::string why = string_at(energy, {"unsupported"}); !why.empty())
    return {"unsupported: " + why, "", "", "", ""};
  if (const std::string why = string_at(energy, {"refused"}); !why.empty())
    return {string_at(energy, {"source"}) + ": refused, " + why, "", "", "", ""};
  const double per_token = number_at(energy, {"joules_per_output_token"});
  const double per_joule = number_at(energy, {"output_tokens_per_joule"});
  const double watts = number_at(energy, {"mean_watts"});
  return {string_at(energy, {"source"}), with_interval(phase, "joules_per_output_token", per_token),
          format_number(per_joule, decimals_for(per_joule)), format_number(watts, 0),
          format_number(number_at(energy, {"window_s"}), 1)};
}

std::string cost_cell(const json& phase) {
  const json& cost = json_at(phase, {"cost"});
  if (!cost.is_object()) return "no cost_per_hour";
  return with_interval(phase, "usd_per_million_output_tokens",
                       number_at(cost, {"usd_per_million_output_tokens"}));
}

}  // namespace

ReportTable energy_cost_table(const json& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  const std::string name = string_at(e, {"name"});
  t.title = "Energy and cost" + (name.empty() ? "" : " (" + name + ")");
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
    const json& lane_section = json_at(e, {"lanes", lane.c_str()});
    for (const auto& phase_name : record::phase_names_in_order(lane_section)) {
      const json& phase = json_at(lane_section, {"phases", phase_name.c_str()});
      const bool measured = json_at(phase, {"energy", "joules"}).is_number();
      any = any || measured || json_at(phase, {"cost"}).is_object();
      std::vector<std::string> row{lane, phase_name};
      for (std::string& cell : energy_cells(phase)) row.push_back(std::move(cell));
      row.push_back(cost_cell(phase));
      t.rows.push_back(std::move(row));
    }
  }
  if (!any) t.rows.clear();  // no lane measured energy or named a cost: nothing to show
  return t;
}

}  // namespace lb::report
