#pragma once
// shard.json: what a merge needs to know of one shard's run folder besides its plan, summary and
// requests: which shard it is, where it ran, the plan's hash, and where its steady clock (the
// requests' t_*_ns stamps) stands against the wall clock and the lanes' servers' clocks.
#include <atomic>
#include <string>

#include <nlohmann/json.hpp>

#include "core/net/stream_client.h"
#include "core/plan/plan.h"
#include "core/record/run_folder_writer.h"
#include "core/run/experiments/experiment.h"
#include "core/run/shard_selection.h"

namespace lb::run {

class ShardRecord {
 public:
  // Writes shard.json at once: SHARD_PLAN is the plan with the shard's lane only, PLAN_JSON the
  // whole plan as plan.json holds it.
  ShardRecord(const ShardSpec& spec, const plan::Plan& shard_plan, const nlohmann::json& plan_json,
              const std::string& client_version, record::RunFolderWriter& writer);
  // Reads LANE's server clock (clock_offset.h) and rewrites shard.json with it.
  void measure_clock(net::StreamClient& client, const LaneRuntime& lane,
                     const std::atomic<bool>& stop);

 private:
  nlohmann::json record_;
  record::RunFolderWriter& writer_;
};

// SHA-256 of the whole plan as plan.json holds it: shards of one plan have the same.
std::string plan_sha256(const nlohmann::json& plan_json);

// What a shard's --out folder holds already. A scheduler runs a task again (a requeued Slurm task,
// a replacement pod): the same shard of the same plan, unfinished, is started over in place, and
// finished, is left as it is.
enum class ShardFolderState { Empty, Unfinished, Finished, Other };
ShardFolderState shard_folder_state(const std::string& dir, const ShardSpec& spec,
                                    const std::string& plan_sha256);

}  // namespace lb::run
