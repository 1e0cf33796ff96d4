#pragma once
// `lanebench-cli fleet slurm`: a plan's shards as a Slurm job array, and a merge job that runs
// after it (docs/fleet.md, "Slurm").
#include <string>
#include <vector>

namespace lb::fleet {

struct SlurmOptions {
  std::string plan_path;      // absolute: the tasks read it from the shared file system
  std::string out_dir;        // absolute; gets shards.sbatch, merge.sbatch, logs/, shards/, run/
  std::string cli_path;       // lanebench-cli as the nodes see it
  std::string partition;      // "" = the cluster's default
  std::string gpus_per_task;  // "" = none asked; "1" or "h100:1"
  std::string time_limit;     // "" = the partition's; "2:00:00", "1-00:00:00"
  bool allow_launch = false;  // passed to each shard's run
  std::vector<std::string> allowed_envs;
  bool partial_merge = false;  // the merge job merges what finished
};

// Writes OUT_DIR/shards.sbatch (an array of SHARD_COUNT tasks, one `run --shard auto/N` each)
// and OUT_DIR/merge.sbatch. False with *why when a value cannot go into a batch script as it is.
bool write_slurm_scripts(const SlurmOptions& options, int64_t shard_count,
                         const std::string& plan_name, std::string* why);

struct SlurmSubmission {
  std::string shard_job;  // the array's job id
  std::string merge_job;
};

// sbatch of both scripts, the merge with --dependency=afterany on the array; OUT_DIR/fleet.json
// keeps the ids for `fleet status`. False with *why (sbatch's own words) when either is refused.
bool submit_slurm(const std::string& out_dir, SlurmSubmission* ids, std::string* why);

// One line per shard: its Slurm state and what its folder holds; then the merge job's state.
std::string fleet_status(const std::string& out_dir);

}  // namespace lb::fleet
