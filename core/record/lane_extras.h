#pragma once
// What a lane's section of an experiment holds beyond its phases and gates, as one type per
// experiment kind, the way a plan holds one parameter type per kind (plan::ExperimentParams).
// Code that treats kinds differently visits the variant with one overload per kind, so a new
// kind does not compile until every such place says what it does with it.
#include <optional>
#include <variant>
#include <vector>

#include "core/record/run_summary.h"

namespace lb::record {

struct ThroughputLane {
  std::optional<ConcurrencySweepRecord> sweep;
  std::optional<KvCapacityRecord> kv_capacity;
};
struct RegressionLane {
  std::optional<LoadBaselineRecord> load_baseline;
};
struct ContextSweepLane {
  std::vector<ContextSizeRecord> sizes;
  std::optional<KvCapacityRecord> kv_capacity;
};
struct PrefixCacheLane {
  std::optional<PrefixCacheRecord> prefix_cache;
};
struct SpeculativeLane {
  std::vector<SpeculativeLevelRecord> levels;
};
struct GatesLane {};  // its checks are LaneRecord::gates
struct TraceLane {
  std::optional<TraceScheduleRecord> schedule;
};
struct SampledRegressionLane {};  // its outcomes are the section's (sampled_outcomes)
struct SessionsLane {
  std::optional<SessionsRecord> sessions;
};
struct CapacityLane {
  std::optional<CapacityRecord> capacity;
};
struct DeterminismLane {
  std::optional<DeterminismFloor> floor;
};
// A kind this version does not know (a newer version's folder): nothing beyond its phases.
struct UnknownKindLane {};

using LaneExtras = std::variant<UnknownKindLane, ThroughputLane, RegressionLane, ContextSweepLane,
                                PrefixCacheLane, SpeculativeLane, GatesLane, TraceLane,
                                SampledRegressionLane, SessionsLane, CapacityLane, DeterminismLane>;

// LANE's extras as SECTION's kind has them.
LaneExtras lane_extras(const ExperimentSection& section, const LaneRecord& lane);

}  // namespace lb::record
