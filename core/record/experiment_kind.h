#pragma once
// The kinds of experiment a plan can hold and a run folder records, as one enum: code branches on
// the kind with a switch, never by comparing its name.
#include <optional>
#include <string_view>
#include <vector>

namespace lb::record {

enum class ExperimentKind {
  Throughput,
  Regression,
  ContextSweep,
  PrefixCache,
  Speculative,
  Gates,
  Trace,
  SampledRegression,
  Sessions,
  Capacity,
  Determinism,
};

// The name a plan and summary.json use: "throughput", "context_sweep", ...
const char* to_string(ExperimentKind kind);
// nullopt for a name this version does not know (a newer version's kind, a typo).
std::optional<ExperimentKind> experiment_kind_from(std::string_view name);

// Every kind, in the order above.
std::vector<ExperimentKind> all_experiment_kinds();

// Kinds whose phases are levels of load (concurrency or rate), drawn as a throughput curve.
bool measures_load(ExperimentKind kind);
// Kinds whose lanes' outputs are compared prompt by prompt for review.
bool is_reviewable(ExperimentKind kind);

}  // namespace lb::record
