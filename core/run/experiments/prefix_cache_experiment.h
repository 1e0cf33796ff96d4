#pragma once
// Prefix cache: a burst of N concurrent requests sharing a P-token prefix with distinct suffixes,
// sent three times: "cold" (nothing cached), "warm" (the identical burst again) and "control"
// (the same shape with a salted prefix nothing can reuse). Each pass gets median TTFT, aggregate
// output tok/s and effective prefill; reuse is shown by three labelled kinds of evidence:
// cached_tokens from the responses' usage (server), prefix-cache hits/queries differenced from
// /metrics around each pass (server), and the cold/warm TTFT ratio (estimated).
#include "core/run/experiments/experiment.h"

namespace lb::run {

class PrefixCacheExperiment : public Experiment {
 public:
  void run(ExperimentContext& ctx) override;
};

}  // namespace lb::run
