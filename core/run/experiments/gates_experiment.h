#pragma once
// Functional gates: each check of the plan (json, streaming, tools, tool_continuation, responses,
// session, reasoning) is attempted `repeat` times per lane and scored n/N. A check the server
// does not support is "unsupported", not failed; a check Stop cut short before any attempt
// failed is "stopped"; any failed check is a blocker (run exits 1).
#include "core/run/experiments/experiment.h"

namespace lb::run {

class GatesExperiment : public Experiment {
 public:
  void run(ExperimentContext& ctx) override;
};

}  // namespace lb::run
