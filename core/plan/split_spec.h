#pragma once
// A plan's "split": one lane's load sent by several clients on one shared schedule, each client a
// shard of the plan (docs/fleet.md, "A split lane").
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace lb::plan {

struct Experiment;

struct SplitSpec {
  std::string lane;               // the lane whose load is split
  int64_t clients = 0;            // 2..kMaxSplitClients
  double sync_timeout_s = 600.0;  // how long a client waits for the others at a phase's start
};

inline constexpr int64_t kMaxSplitClients = 256;

// Whether the experiment's load on the split lane is shared among its clients (a throughput
// experiment over a list of concurrencies or at a request rate, or a trace replay, one trial).
// Other experiments run on the lane's first client only.
bool splits_load(const Experiment& e);

nlohmann::json split_json(const SplitSpec& split);

}  // namespace lb::plan
