#pragma once
// The server's /metrics counters scraped just before and just after one pass of an experiment
// and differenced, so a figure such as prefix-cache hits belongs to that pass alone (the runner's
// own snapshots span the whole experiment).
#include <optional>
#include <string>

#include "core/metrics/server_counters.h"
#include "core/record/kv_capacity_record.h"
#include "core/run/experiments/experiment.h"

namespace lb::run {

class PassCounters {
 public:
  // Takes the "before" scrape now; nothing when the lane exposes no /metrics.
  PassCounters(ExperimentContext& ctx, const LaneRuntime& lane);
  // Takes the "after" scrape; nullopt when either scrape is missing.
  std::optional<metrics::CounterDelta> finish();

 private:
  std::optional<metrics::ServerCounters> scrape();
  ExperimentContext& ctx_;
  const LaneRuntime& lane_;
  std::optional<metrics::ServerCounters> before_;
};

// The base of a phase of an experiment on one lane: names, URL, one request at a time.
LoadPhase lane_phase(const ExperimentContext& ctx, const LaneRuntime& lane, std::string phase);

// KV cache capacity in tokens and in full-context windows (capacity / max_model_len) from the
// cache config the lane's /metrics exposed when probed; nullopt when it exposes none.
std::optional<record::KvCapacityRecord> kv_capacity(const LaneRuntime& lane);

// FNV-1a of a name mixed into a seed: the same plan gives the same prompts on every platform.
uint64_t name_seed(const std::string& name, uint64_t seed = 0);

}  // namespace lb::run
