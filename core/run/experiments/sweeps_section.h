#pragma once
// summary.json's "sweeps": for each axis (one_at_a_time) or each swept lane (grid), the figures
// of every point against its value and the best point under the plan's objective: the highest
// (or lowest) objective figure among the points whose server ran and that keep every
// "subject_to" bound. Figures come from one phase of one experiment: the objective's, or by
// default the first experiment the point's lane ran and that lane's last phase in it.
#include <nlohmann/json.hpp>

#include "core/plan/sweep_expansion.h"

namespace lb::run {

nlohmann::json sweep_summary_json(const plan::SweptPlan& swept, const nlohmann::json& summary);

}  // namespace lb::run
