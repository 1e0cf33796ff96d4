#pragma once
// summary.json and environment.json of a merged run (docs/fleet.md, "What a merge recomputes").
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/fleet/merged_requests.h"
#include "core/fleet/shard_folder.h"
#include "core/plan/sweep_expansion.h"

namespace lb::fleet {

struct MergedSummary {
  nlohmann::json summary;
  bool blocked = false;  // a blocker was found (a failed gate, in a shard or judged here)
};

// SHARDS sorted by index, all finished; MISSING the indices left out (a partial merge). A
// regression's pairs are judged from the answers already copied into OUT_DIR, its review files
// written there; what could not be judged goes to NOTES.
MergedSummary merged_summary(const plan::SweptPlan& swept, const std::vector<ShardFolder>& shards,
                             const MergedRequests& requests, const std::vector<int64_t>& missing,
                             const std::string& out_dir, std::vector<std::string>& notes);

// The first shard's environment.json with every shard's lanes, and "shards": where each ran.
nlohmann::json merged_environment(const std::vector<ShardFolder>& shards);

}  // namespace lb::fleet
