#pragma once
// `lanebench-cli merge`: N shards' run folders of one plan (lanebench-cli run --shard) made into
// one run folder (docs/fleet.md). Each lane's phases come whole from the shard that ran the lane;
// everything that spans lanes (the comparisons of lanes, performance gates, the sweep table) is
// recomputed from the merged requests, never averaged from shard summaries.
#include <cstdint>
#include <string>
#include <vector>

namespace lb::fleet {

struct MergeOptions {
  std::vector<std::string> shard_dirs;
  std::string out_dir;   // must be new or empty
  bool partial = false;  // merge without missing or unfinished shards, marking the run partial
  double max_clock_offset_ms = 1000;
};

struct MergeResult {
  int exit_code = 0;                // 0, 1 (a gate failed or a blocker), 2 (input)
  std::vector<std::string> errors;  // why nothing was merged, or what could not be written
  std::vector<std::string> notes;   // what a partial merge left out
  std::vector<int64_t> missing;     // shard indices left out
  int64_t requests = 0;             // lines in the merged requests.jsonl
  int64_t shards = 0;               // shards merged
};

MergeResult merge_shards(const MergeOptions& options);

}  // namespace lb::fleet
