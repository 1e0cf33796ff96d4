#pragma once
// What a run folder's plan.json says about the run at a glance, read from the resolved plan the
// engine wrote (or a plan of any version): its name, its lanes, the name and kind of each
// experiment its requests carry, and the first capacity experiment's SLOs. Read tolerantly: an
// entry of another shape is left out and, when asked, noted as a problem naming the field
// ("plan.json: lanes[0].id is not a string").
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace lb::record {

struct PlannedExperiment {
  std::string name;  // the name its requests carry: the experiment's name, else its kind
  std::string kind;  // as written ("capacity"); record::experiment_kind_from reads it
};

// A capacity experiment's SLOs in ms (<= 0 = not set) and whether it searches a request rate.
struct CapacityPlanSlo {
  double ttft_p99_ms = -1;
  double tpot_p99_ms = -1;
  bool by_rate = false;
};

// A lane as the plan gave it: where it is served and where its key comes from (never the key).
struct PlannedLane {
  std::string id;
  std::string base_url;
  std::string api_key_env;  // an environment variable's name, or "keyring:<lane-id>"
  // The user's notes as (key, text); nullopt when the plan gave none.
  std::optional<std::vector<std::pair<std::string, std::string>>> notes;
};

struct PlanHeadline {
  std::string name;
  std::vector<std::string> lanes;         // lanes[].id
  std::vector<PlannedLane> lane_details;  // one per entry of `lanes`, in that order
  std::vector<PlannedExperiment> experiments;
  std::optional<CapacityPlanSlo> capacity;  // the first capacity experiment's; none without one
};

// PLAN as read from plan.json; a PLAN that is not an object reads as empty. PROBLEMS, when
// given, gets one sentence per field left out.
PlanHeadline plan_headline_of(const nlohmann::json& plan,
                              std::vector<std::string>* problems = nullptr);

// DIR/plan.json, read bounded and never waiting on a FIFO: nullopt when it is absent, and also
// with a problem when it cannot be read, is not JSON or not an object.
std::optional<PlanHeadline> read_plan_headline(const std::string& dir,
                                               std::vector<std::string>* problems = nullptr);

}  // namespace lb::record
