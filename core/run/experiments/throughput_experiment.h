#pragma once
// Throughput: synthetic prompts of input_tokens, exactly output_tokens generated where the server
// honours ignore_eos; a closed-loop sweep over the concurrency list (phases "c1", "c5", ...) or
// one open-loop phase at request_rate with Gamma burstiness (phase "r<rate>").
#include "core/run/experiments/experiment.h"

namespace lb::run {

class ThroughputExperiment : public Experiment {
 public:
  void run(ExperimentContext& ctx) override;
};

// "r10", "r2.5": the phase name of an open-loop run at that rate.
std::string open_loop_phase_name(double request_rate);

}  // namespace lb::run
