#pragma once
// Turning a plan's sweep into lanes: each point of an axis (one_at_a_time) or each combination
// of one lane's axes (grid) becomes a derived lane, "fp8-mtp3[max_num_batched_tokens=8192]",
// whose launch command carries the flag (--max-num-batched-tokens 8192). The derived lanes take
// the swept lane's place in the lane list and in every experiment that named it.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/plan/plan.h"

namespace lb::plan {

struct SweepSetting {
  std::string parameter;
  nlohmann::json value;
};

struct SweepPoint {
  std::string lane;       // the derived lane id
  std::string base_lane;  // the swept lane
  size_t axis = 0;        // one_at_a_time: the axis it belongs to; grid: the lane's first axis
  std::vector<SweepSetting> settings;
};

struct SweptPlan {
  Plan plan;  // lanes and experiments with the derived lanes in place of the swept ones
  std::vector<SweepPoint> points;
};

// The plan unchanged (no points) when it has no sweep.
SweptPlan expand_sweep(const Plan& plan);

// "max_num_batched_tokens" -> "--max-num-batched-tokens".
std::string parameter_flag(std::string_view parameter);
// The command with any earlier occurrence of the flag removed and the setting appended: numbers
// and strings as "--flag VALUE", true as "--flag", false as "--no-flag".
std::vector<std::string> command_with_setting(std::vector<std::string> command,
                                              const SweepSetting& setting);
std::string derived_lane_id(const std::string& base, const std::vector<SweepSetting>& settings);

}  // namespace lb::plan
