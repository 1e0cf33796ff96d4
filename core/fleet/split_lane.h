#pragma once
// A split lane in a merge (docs/fleet.md, "A split lane"): its clients' requests, on one time
// line, summarised again phase by phase as one client that sent them all would have, so its
// percentiles, intervals, steady window, sweep and schedule lateness come from every request and
// none is averaged from the clients' summaries.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/fleet/merged_requests.h"
#include "core/plan/plan.h"

namespace lb::fleet {

// The (experiment, lane) pairs of PLAN whose load the split lane's clients shared.
std::set<ExperimentLane> split_pairs(const plan::Plan& plan);

// The split lane's part of experiment SPEC's section: CLIENTS are the lane's objects in each
// client's section (client 0 first), RECORDS the merged requests.
nlohmann::json split_lane_json(const plan::Experiment& spec, const std::string& lane,
                               const std::vector<nlohmann::json>& clients,
                               const MergedRequests& requests);

}  // namespace lb::fleet
