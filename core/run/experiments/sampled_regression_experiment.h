#pragma once
// Sampled review: every prompt of a prompt set answered `samples` times per lane at the plan's
// temperature and top_p (sample k with seed `seed + k` where the server takes a seed). Each
// lane's samples are saved as texts/<lane>.samples.json (per prompt, the samples in order); then
// each lane is compared with the first (compare/sampled_review.h): sampled.json holds every
// prompt's similarity distributions and test, sampled-review.json the reviewers' verdicts.
#include "core/compare/sampled_review.h"
#include "core/run/experiments/experiment.h"

namespace lb::run {

class SampledRegressionExperiment : public Experiment {
 public:
  void run(ExperimentContext& ctx) override;
};

// Records of one lane in request order n = prompt * samples + k, as samples per prompt; a
// sample without a finished request counts as failed.
std::vector<compare::PromptSamples> samples_in_prompt_order(
    const std::vector<metrics::RequestRecord>& records, size_t prompt_count, int64_t samples);

}  // namespace lb::run
