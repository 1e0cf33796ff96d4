#include "core/record/sweep_record.h"

#include "core/record/json_member.h"

namespace lb::record {
namespace {

// An object of numbers; members that are not numbers are left out.
std::map<std::string, double> numbers_of(const nlohmann::json& object) {
  std::map<std::string, double> out;
  if (object.is_object())
    for (const auto& [key, v] : object.items())
      if (v.is_number()) out[key] = v.get<double>();
  return out;
}

SweepPointRecord read_point(const nlohmann::json& point) {
  SweepPointRecord p;
  p.lane = member_text(point, "lane");
  p.value = member_number(point, "value");
  p.figures = numbers_of(member(point, "figures"));
  p.eligible = member_optional_flag(point, "eligible");
  return p;
}

}  // namespace

std::string SweepAxisRecord::objective_figure() const {
  return !maximize.empty() ? maximize : !minimize.empty() ? minimize : "output_throughput";
}

std::vector<SweepAxisRecord> read_sweeps(const nlohmann::json& sweeps) {
  std::vector<SweepAxisRecord> out;
  if (!sweeps.is_array()) return out;
  for (const nlohmann::json& axis : sweeps) {
    if (!axis.is_object()) continue;
    SweepAxisRecord a;
    a.lane = member_text(axis, "lane");
    a.mode = member_text(axis, "mode");
    a.parameter = member_text(axis, "parameter");
    const nlohmann::json& objective = member(axis, "objective");
    a.maximize = member_text(objective, "maximize");
    a.minimize = member_text(objective, "minimize");
    a.subject_to = numbers_of(member(objective, "subject_to"));
    if (const nlohmann::json& points = member(axis, "points"); points.is_array())
      for (const nlohmann::json& point : points)
        if (point.is_object()) a.points.push_back(read_point(point));
    a.best_value = member_number(member(axis, "best"), "value");
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace lb::record
