#include "core/plan/sweep_spec.h"

namespace lb::plan {

std::string sweep_value_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

nlohmann::json sweep_json(const SweepSpec& sweep) {
  nlohmann::json axes = nlohmann::json::array();
  for (const auto& a : sweep.axes)
    axes.push_back({{"lane", a.lane}, {"parameter", a.parameter}, {"values", a.values}});
  return {{"mode", sweep.mode}, {"axes", axes}};
}

nlohmann::json objective_json(const Objective& o) {
  nlohmann::json bounds = nlohmann::json::object();
  for (const auto& [figure, bound] : o.at_most) bounds[figure] = bound;
  nlohmann::json j = {{o.maximize ? "maximize" : "minimize", o.figure}, {"subject_to", bounds}};
  if (!o.experiment.empty()) j["experiment"] = o.experiment;
  if (!o.phase.empty()) j["phase"] = o.phase;
  return j;
}

}  // namespace lb::plan
