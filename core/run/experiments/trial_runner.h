#pragma once
// Runs one experiment `trials` times over its lanes in the plan's lane order
// (plan/trial_options.h): sequential, interleaved (A B A B ...) or parallel (every lane at the
// same time, on its own thread). One trial in sequential order is the experiment run once, its
// lanes one after the other. The order actually run goes to section["trials"].
#include "core/run/experiments/experiment.h"

namespace lb::run {

void run_trials(Experiment& experiment, ExperimentContext& ctx);

}  // namespace lb::run
