#pragma once
// A swept plan's outcome as summary.json records it ("sweeps", docs/plans.md): for each axis (or
// each swept lane of a grid) the figures of every point against its value and the best point
// under the plan's objective. Read tolerantly: a member of another type reads as absent (NaN, ""
// or nullopt), never a throw.
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

struct SweepPointRecord {
  std::string lane;
  double value = NAN;                     // the swept value (one parameter); NaN on a grid
  std::map<std::string, double> figures;  // by summary.json key; figures not measured left out
  std::optional<bool> eligible;           // kept every bound, and its server ran
};

struct SweepAxisRecord {
  std::string lane;
  std::string mode;                          // "one_at_a_time" or "grid"
  std::string parameter;                     // the swept parameter; "" on a grid
  std::string maximize, minimize;            // the objective's figure, one of them set
  std::map<std::string, double> subject_to;  // figure -> upper bound
  std::vector<SweepPointRecord> points;
  double best_value = NAN;  // the best point's value; NaN when no point met the objective

  // The figure the objective names; "output_throughput" when it names none.
  std::string objective_figure() const;
};

// summary.json's "sweeps" list; entries that are not objects are left out.
std::vector<SweepAxisRecord> read_sweeps(const nlohmann::json& sweeps);

}  // namespace lb::record
