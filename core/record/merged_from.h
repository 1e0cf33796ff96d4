#pragma once
// Where a merged run's shards ran (docs/fleet.md): summary.json's "shards" list and the run's
// "partial" mark, as types, for the report's notes and the Runs page.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/record/run_summary.h"

namespace lb::record {

struct ShardOrigin {
  int64_t index = -1;
  std::string host;
  std::string folder;  // the shard's run folder's name
  std::vector<std::string> lanes;
  std::optional<double> clock_offset_ms;  // its clock minus its lanes' servers'
  double clock_uncertainty_ms = 0;
  // A client of a split lane (docs/fleet.md, "A split lane"): which one, of how many; 0 = not.
  int64_t split_client = 0, split_clients = 0;
};

struct MergedFrom {
  std::vector<ShardOrigin> shards;  // in index order
  std::vector<int64_t> missing;     // shards a partial merge left out
  int64_t of = 0;                   // the plan's shard count, when partial
  bool partial() const { return !missing.empty(); }
  // The largest clock offset of any shard, in magnitude (0 when none was measured).
  double largest_offset_ms() const;
};

// nullopt for a run made in one process. Entries that cannot be read are left out.
std::optional<MergedFrom> merged_from(const RunSummary& summary);

// "0 bf16 on node-a (clock -4 ms ± 6 ms)"; a split lane's client "2 fp8 client 1/2 on node-b ..."
std::string describe(const ShardOrigin& shard);

}  // namespace lb::record
