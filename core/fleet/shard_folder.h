#pragma once
// One shard's run folder as a merge reads it (docs/fleet.md): shard.json, plan.json, summary.json
// and environment.json, each read bounded and checked, and the checks that shards belong together.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::fleet {

struct ShardFolder {
  std::string dir;
  int64_t index = -1;
  int64_t count = 0;
  std::vector<std::string> lanes;
  int64_t split_client = 0, split_clients = 0;  // a client of the split lane (shard.json "split")
  std::string host;
  std::string client_version;
  std::string plan_sha256;
  std::string plan_text;  // plan.json as written
  nlohmann::json summary;
  nlohmann::json environment;
  // This machine's wall clock minus its steady clock when the shard started (ns).
  int64_t wall_minus_steady_ns = 0;
  // This machine's clock minus its lanes' servers' (mean over the lanes that sent a Date), and the
  // largest uncertainty of those readings; nullopt when no server sent one.
  std::optional<double> clock_offset_ms;
  double clock_uncertainty_ms = 0;
  // The run ended on its own (summary.json has finished_at, not interrupted).
  bool finished = false;
};

// DIR read as a shard. nullopt with *why ("DIR: shard.json: not valid JSON") when it is not one.
std::optional<ShardFolder> read_shard_folder(const std::string& dir, std::string* why);

struct ShardSetCheck {
  std::vector<std::string> errors;  // why the shards cannot be merged
  std::vector<std::string> notes;   // what a partial merge leaves out
  std::vector<int64_t> missing;     // indices with no finished shard
};

// Whether SHARDS (sorted by index here) are shards of one plan by one client version, each index
// once, and their clocks within MAX_OFFSET_MS of each other. A missing or unfinished index is an
// error unless PARTIAL (then a note, and the unfinished shard is left out).
ShardSetCheck check_shard_set(std::vector<ShardFolder>& shards, bool partial, double max_offset_ms);

}  // namespace lb::fleet
