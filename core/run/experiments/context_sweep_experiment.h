#pragma once
// Context sweep: one prompt per target size (capped at the lane's max_model_len), built from
// varied filler with a needle hidden at the plan's needle_depth and asked for. Prompts are sized
// with the server's /tokenize when it has one (to within 1% of the target, chat template included)
// and otherwise estimated and labelled so. Per size: TTFT, effective prefill rate, decode rate,
// E2EL and whether the answer retrieved the needle. Phases are named by the target size ("32768").
#include "core/run/experiments/experiment.h"

namespace lb::run {

class ContextSweepExperiment : public Experiment {
 public:
  void run(ExperimentContext& ctx) override;
};

// The sizes swept when a plan lists none.
const std::vector<int64_t>& default_context_sizes();

}  // namespace lb::run
