#include "core/plan/sweep_expansion.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace lb::plan {
namespace {

// Lane ids name files in the run folder; a value keeps to a path-safe alphabet there.
std::string id_safe(std::string text) {
  for (char& c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) &&
        std::string_view("._+-").find(c) == std::string_view::npos)
      c = '_';
  return text;
}

bool takes_value(const std::string& arg) { return arg.rfind("--", 0) != 0; }

Lane derived_lane(const Lane& base, const std::vector<SweepSetting>& settings) {
  Lane lane = base;
  lane.id = derived_lane_id(base.id, settings);
  for (const auto& s : settings)
    lane.launch->command = command_with_setting(std::move(lane.launch->command), s);
  return lane;
}

// one_at_a_time: one setting per point; grid: every combination of the lane's axes.
std::vector<SweepPoint> points_of(const Plan& plan) {
  std::vector<SweepPoint> out;
  const auto& axes = plan.sweep.axes;
  if (plan.sweep.mode != "grid") {
    for (size_t a = 0; a < axes.size(); ++a)
      for (const auto& v : axes[a].values)
        out.push_back({derived_lane_id(axes[a].lane, {{axes[a].parameter, v}}),
                       axes[a].lane,
                       a,
                       {{axes[a].parameter, v}}});
    return out;
  }
  std::vector<std::string> lanes;
  for (const auto& a : axes)
    if (std::find(lanes.begin(), lanes.end(), a.lane) == lanes.end()) lanes.push_back(a.lane);
  for (const auto& lane : lanes) {
    std::vector<std::vector<SweepSetting>> combos = {{}};
    size_t first_axis = axes.size();
    for (size_t a = 0; a < axes.size(); ++a) {
      if (axes[a].lane != lane) continue;
      first_axis = std::min(first_axis, a);
      std::vector<std::vector<SweepSetting>> next;
      for (const auto& combo : combos)
        for (const auto& v : axes[a].values) {
          next.push_back(combo);
          next.back().push_back({axes[a].parameter, v});
        }
      combos = std::move(next);
    }
    for (auto& combo : combos)
      out.push_back({derived_lane_id(lane, combo), lane, first_axis, std::move(combo)});
  }
  return out;
}

}  // namespace

std::string parameter_flag(std::string_view parameter) {
  std::string flag = "--" + std::string(parameter);
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

std::vector<std::string> command_with_setting(std::vector<std::string> command,
                                              const SweepSetting& setting) {
  const std::string flag = parameter_flag(setting.parameter);
  const std::string no_flag = "--no-" + flag.substr(2);
  std::vector<std::string> out;
  for (size_t i = 0; i < command.size(); ++i) {
    const std::string& arg = command[i];
    if (i > 0 && (arg == flag || arg == no_flag)) {
      if (arg == flag && i + 1 < command.size() && takes_value(command[i + 1])) ++i;
      continue;
    }
    if (i > 0 && arg.rfind(flag + "=", 0) == 0) continue;
    out.push_back(arg);
  }
  if (setting.value.is_boolean())
    out.push_back(setting.value.get<bool>() ? flag : no_flag);
  else {
    out.push_back(flag);
    out.push_back(sweep_value_text(setting.value));
  }
  return out;
}

std::string derived_lane_id(const std::string& base, const std::vector<SweepSetting>& settings) {
  std::string id = base + "[";
  for (size_t i = 0; i < settings.size(); ++i)
    id +=
        (i ? "," : "") + settings[i].parameter + "=" + id_safe(sweep_value_text(settings[i].value));
  return id + "]";
}

SweptPlan expand_sweep(const Plan& plan) {
  SweptPlan out{plan, {}};
  if (plan.sweep.axes.empty()) return out;
  out.points = points_of(plan);
  std::map<std::string, std::vector<std::string>> derived_ids;  // base lane -> derived ids
  std::vector<Lane> lanes;
  for (const Lane& lane : plan.lanes) {
    bool swept = false;
    for (const auto& p : out.points) {
      if (p.base_lane != lane.id) continue;
      swept = true;
      lanes.push_back(derived_lane(lane, p.settings));
      derived_ids[lane.id].push_back(p.lane);
    }
    if (!swept) lanes.push_back(lane);
  }
  out.plan.lanes = std::move(lanes);
  for (auto& e : out.plan.experiments) {
    std::vector<std::string> ids;
    for (const auto& id : e.lanes) {
      const auto it = derived_ids.find(id);
      if (it == derived_ids.end())
        ids.push_back(id);
      else
        ids.insert(ids.end(), it->second.begin(), it->second.end());
    }
    e.lanes = std::move(ids);
  }
  return out;
}

}  // namespace lb::plan
