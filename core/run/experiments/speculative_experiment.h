#pragma once
// Speculative decoding: a closed-loop run at each concurrency of the plan (phases "c1", "c5")
// with decode rate, ITL and tokens-per-event distributions, and the server's acceptance rate,
// acceptance length and per-position acceptance differenced from /metrics around each level.
// Lanes that drafted nothing are the non-speculative baseline the others are compared with.
#include "core/run/experiments/experiment.h"

namespace lb::run {

class SpeculativeExperiment : public Experiment {
 public:
  void run(ExperimentContext& ctx) override;
};

}  // namespace lb::run
