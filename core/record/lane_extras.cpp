#include "core/record/lane_extras.h"

namespace lb::record {

LaneExtras lane_extras(const ExperimentSection& section, const LaneRecord& lane) {
  if (!section.kind) return UnknownKindLane{};
  switch (*section.kind) {
    case ExperimentKind::Throughput:
      return ThroughputLane{lane.concurrency_sweep(), lane.kv_capacity()};
    case ExperimentKind::Regression:
      return RegressionLane{lane.load_baseline()};
    case ExperimentKind::ContextSweep:
      return ContextSweepLane{lane.context_sweep(), lane.kv_capacity()};
    case ExperimentKind::PrefixCache:
      return PrefixCacheLane{lane.prefix_cache()};
    case ExperimentKind::Speculative:
      return SpeculativeLane{lane.speculative()};
    case ExperimentKind::Gates:
      return GatesLane{};
    case ExperimentKind::Trace:
      return TraceLane{lane.trace_schedule()};
    case ExperimentKind::SampledRegression:
      return SampledRegressionLane{};
    case ExperimentKind::Sessions:
      return SessionsLane{lane.sessions()};
    case ExperimentKind::Capacity:
      return CapacityLane{lane.capacity()};
    case ExperimentKind::Determinism:
      return DeterminismLane{lane.determinism_floor()};
  }
  return UnknownKindLane{};
}

}  // namespace lb::record
