#pragma once
// An SLO capacity search on one lane, as summary.json records it ("capacity" in the lane's
// section, docs/capacity.md): the highest load at which every SLO held, what bound it, and every
// probe of the search. Read tolerantly: a member of another type reads as absent (NaN, "" or
// false), never a throw.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

// The experiment's SLOs ("slo" in its section); NaN where none was set.
struct CapacitySlo {
  double ttft_p99_ms = NAN;
  double tpot_p99_ms = NAN;
};

struct CapacityProbeRecord {
  double load = NAN;
  double ttft_p99_ms = NAN;  // NaN when no request completed
  double tpot_p99_ms = NAN;
  double goodput_req_s = NAN;
  bool pass = false;
  std::string binding;  // the SLO that failed it ("ttft_p99_ms", ...); "" when it passed
  double completed = NAN;
  double errors = NAN;
  double duration_s = NAN;
};

struct CapacityRecord {
  std::string load;       // the plan's load: "concurrency" (closed loop) or "rate" (open loop)
  std::string unit;       // "concurrent requests" or "req/s"
  double capacity = NAN;  // NaN: no probed load met every SLO
  double goodput_req_s = NAN;
  std::string binding_slo;  // the SLO of the lowest failing load; "" when none failed
  double failing_load = NAN;
  bool reached_max_load = false;  // the highest load allowed met every SLO: capacity is at least it
  std::string stopped_by;         // "resolution", "max_load", "max_probes", ...
  double probe_count = NAN;
  double search_duration_s = NAN;
  std::vector<CapacityProbeRecord> probes;  // in the order probed; non-objects left out
  // A probe the time bound stopped short of its requests: kept apart, not judged.
  std::optional<CapacityProbeRecord> cut_probe;
};

CapacitySlo read_capacity_slo(const nlohmann::json& slo);
// A lane's "capacity" object; nullopt when it is not an object.
std::optional<CapacityRecord> read_capacity(const nlohmann::json& capacity);
// Null where there is no figure (no SLO, no capacity, no binding SLO).
nlohmann::json to_json(const CapacitySlo& slo);
nlohmann::json to_json(const CapacityProbeRecord& probe);
nlohmann::json to_json(const CapacityRecord& capacity);

}  // namespace lb::record
