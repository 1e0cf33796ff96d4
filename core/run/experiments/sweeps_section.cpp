#include "core/run/experiments/sweeps_section.h"

#include <optional>

namespace lb::run {
namespace {

using nlohmann::json;

const char* const kShownFigures[] = {
    "output_throughput", "request_throughput", "p99_ttft_ms", "median_ttft_ms",
    "median_tpot_ms",    "p99_tpot_ms",        "failed"};

// The phase summary the objective reads for `lane`, with where it came from.
std::optional<json> phase_of(const json& summary, const plan::Objective& o, const std::string& lane,
                             json& where) {
  for (const auto& section : summary.value("experiments", json::array())) {
    if (!section.is_object()) continue;
    if (!o.experiment.empty() && section.value("name", "") != o.experiment) continue;
    const json* lane_section = section.contains("lanes") && section["lanes"].contains(lane)
                                   ? &section["lanes"][lane]
                                   : nullptr;
    if (lane_section == nullptr || !lane_section->contains("phases")) continue;
    std::string phase = o.phase;
    if (phase.empty() && lane_section->contains("phase_order") &&
        !(*lane_section)["phase_order"].empty())
      phase = (*lane_section)["phase_order"].back().get<std::string>();
    if (!(*lane_section)["phases"].contains(phase)) continue;
    where = {{"experiment", section.value("name", "")}, {"phase", phase}};
    return (*lane_section)["phases"][phase];
  }
  return std::nullopt;
}

json point_json(const plan::SweepPoint& p, const plan::Objective& o, const json& summary) {
  json settings = json::object();
  for (const auto& s : p.settings) settings[s.parameter] = s.value;
  json out = {{"lane", p.lane}, {"settings", settings}};
  if (p.settings.size() == 1) out["value"] = p.settings.front().value;
  const json server = summary.contains("servers") && summary["servers"].contains(p.lane)
                          ? summary["servers"][p.lane]
                          : json();
  out["server_status"] = server.is_object() ? server.value("status", "") : "not_started";
  json where;
  const auto phase = phase_of(summary, o, p.lane, where);
  if (!phase) {
    out["figures"] = nullptr;
    out["eligible"] = false;
    out["why_not"] =
        server.is_object() && server.contains("error") ? server["error"] : json("no figures");
    return out;
  }
  json figures = json::object();
  for (const char* f : kShownFigures) figures[f] = phase->value(f, json());
  figures[o.figure] = phase->value(o.figure, json());
  bool eligible = figures[o.figure].is_number();
  json violated = json::array();
  for (const auto& [figure, bound] : o.at_most) {
    figures[figure] = phase->value(figure, json());
    if (!figures[figure].is_number() || figures[figure].get<double>() > bound) {
      eligible = false;
      violated.push_back(figure);
    }
  }
  out.update(where);
  out["figures"] = figures;
  out["eligible"] = eligible;
  if (!violated.empty()) out["violates"] = violated;
  if (phase->contains("intervals") && (*phase)["intervals"].contains(o.figure))
    out["interval"] = (*phase)["intervals"][o.figure];
  return out;
}

json best_of(const json& points, const plan::Objective& o) {
  const json* best = nullptr;
  for (const auto& p : points) {
    if (!p.value("eligible", false)) continue;
    const double v = p["figures"][o.figure].get<double>();
    if (best == nullptr || (o.maximize ? v > (*best)["figures"][o.figure].get<double>()
                                       : v < (*best)["figures"][o.figure].get<double>()))
      best = &p;
  }
  if (best == nullptr) return {{"lane", nullptr}, {"reason", "no point met the objective"}};
  json out = {{"lane", (*best)["lane"]},
              {"settings", (*best)["settings"]},
              {"figure", o.figure},
              {"value_of_figure", (*best)["figures"][o.figure]}};
  if (best->contains("value")) out["value"] = (*best)["value"];
  return out;
}

}  // namespace

json sweep_summary_json(const plan::SweptPlan& swept, const json& summary) {
  const plan::Plan& plan = swept.plan;
  const plan::Objective& o = plan.objective;
  json out = json::array();
  for (size_t a = 0; a < plan.sweep.axes.size(); ++a) {
    const bool grid = plan.sweep.mode == "grid";
    json points = json::array();
    for (const auto& p : swept.points)
      if (p.axis == a) points.push_back(point_json(p, o, summary));
    if (points.empty()) continue;  // a grid lane's later axes share its first axis's entry
    json entry = {{"lane", plan.sweep.axes[a].lane},
                  {"mode", plan.sweep.mode},
                  {"objective", plan::objective_json(o)},
                  {"points", points},
                  {"best", best_of(points, o)}};
    if (grid) {
      json params = json::array();
      for (const auto& axis : plan.sweep.axes)
        if (axis.lane == plan.sweep.axes[a].lane) params.push_back(axis.parameter);
      entry["parameters"] = params;
    } else {
      entry["parameter"] = plan.sweep.axes[a].parameter;
      entry["values"] = plan.sweep.axes[a].values;
    }
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace lb::run
