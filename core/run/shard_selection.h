#pragma once
// A plan run as shards (docs/fleet.md): shard I of N runs the plan's experiments on one lane of
// the plan with its sweep expanded, so N machines can each run one lane (with its managed server,
// one sweep value per shard), and `lanebench-cli merge` makes one run folder of the N folders.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/plan/environment.h"
#include "core/plan/plan.h"

namespace lb::run {

struct ShardSpec {
  int64_t index = 0;  // 0-based
  int64_t count = 1;
};

// "I/N" (0 <= I < N), or "auto/N": the index from SLURM_ARRAY_TASK_ID, else JOB_COMPLETION_INDEX
// (a Kubernetes Indexed Job) in ENV. nullopt with *why when TEXT is neither or the index is out of
// range or missing.
std::optional<ShardSpec> parse_shard_spec(std::string_view text, const plan::Environment& env,
                                          std::string* why);

// How many shards PLAN (its sweep expanded) runs as: one per lane, one per client of a split lane.
int64_t shard_count(const plan::Plan& plan);

// Keeps in PLAN (its sweep expanded) only shard SPEC's lane (for a client of a split lane, marks
// its experiments: Experiment::split_client, skips_lane). False with *why (when not null) when
// it cannot run as SPEC.count shards: another count, or an experiment that compares the lanes'
// answers in one process (a sampled regression).
bool keep_shard_lanes(plan::Plan& plan, const ShardSpec& spec, std::string* why);

// In a shard of the split lane (after keep_shard_lanes): which of its clients it is.
std::optional<int64_t> split_client_of(const plan::Plan& shard_plan);

// shard.json's "shard" object: {"index", "count", "lanes"}, and "split": {"lane", "client",
// "clients"} in a client of the split lane.
nlohmann::json shard_json(const ShardSpec& spec, const plan::Plan& shard_plan);

}  // namespace lb::run
