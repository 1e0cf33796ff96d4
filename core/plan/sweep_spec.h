#pragma once
// A plan's "sweep" (docs/plan-file.md, "Sweeps"): which launch parameter of which managed lane
// takes which values, and the "objective" that picks the best value of each axis.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::plan {

struct SweepAxis {
  std::string lane;                    // a lane with a launch block
  std::string parameter;               // e.g. "max_num_batched_tokens" -> --max-num-batched-tokens
  std::vector<nlohmann::json> values;  // numbers, strings or booleans
};

struct SweepSpec {
  std::vector<SweepAxis> axes;         // empty = no sweep
  std::string mode = "one_at_a_time";  // or "grid": every combination of one lane's axes
};

// "objective": {"maximize": "output_throughput", "subject_to": {"p99_ttft_ms": 2000}}.
// Figures are the names of a phase's summary (docs/metrics.md); each constraint is an upper
// bound. experiment/phase name where the figures are read; empty = the first experiment the
// swept lanes ran, and its last phase.
struct Objective {
  std::string figure = "output_throughput";
  bool maximize = true;
  std::vector<std::pair<std::string, double>> at_most;  // figure <= bound
  std::string experiment;
  std::string phase;
};

}  // namespace lb::plan

namespace lb::plan {

// As written to plan.json.
nlohmann::json sweep_json(const SweepSpec& sweep);
nlohmann::json objective_json(const Objective& objective);

// A swept value as it appears in a flag and a lane id: 8192, 0.85, fp8, true.
std::string sweep_value_text(const nlohmann::json& value);

}  // namespace lb::plan
