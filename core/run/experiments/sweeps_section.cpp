#include "core/run/experiments/sweeps_section.h"

#include <optional>

#include "core/record/json_member.h"
#include "core/record/run_summary.h"

namespace lb::run {
namespace {

using nlohmann::json;

const char* const kShownFigures[] = {
    "output_throughput", "request_throughput", "p99_ttft_ms", "median_ttft_ms",
    "median_tpot_ms",    "p99_tpot_ms",        "failed"};

// The phase the objective reads for `lane`, as summary.json has it, with where it came from.
std::optional<json> phase_of(const record::RunSummary& summary, const plan::Objective& o,
                             const std::string& lane, json& where) {
  for (const record::ExperimentSection& section : summary.experiments) {
    if (!o.experiment.empty() && section.name != o.experiment) continue;
    const record::LaneRecord* lane_record = section.lane(lane);
    if (lane_record == nullptr || lane_record->phases.empty()) continue;
    const std::string phase = o.phase.empty() ? lane_record->phases.back().name : o.phase;
    const record::PhaseRecord* found = lane_record->phase(phase);
    if (found == nullptr) continue;
    where = {{"experiment", section.name}, {"phase", phase}};
    return record::to_json(*found);
  }
  return std::nullopt;
}

json point_json(const plan::SweepPoint& p, const plan::Objective& o,
                const record::RunSummary& summary) {
  json settings = json::object();
  for (const auto& s : p.settings) settings[s.parameter] = s.value;
  json out = {{"lane", p.lane}, {"settings", settings}};
  if (p.settings.size() == 1) out["value"] = p.settings.front().value;
  const json server = record::member(record::member(summary.more, "servers"), p.lane.c_str());
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

json sweep_summary_json(const plan::SweptPlan& swept, const json& summary_json) {
  record::FileFields fields("summary.json");
  const record::RunSummary summary = record::read_run_summary(summary_json, fields);
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
