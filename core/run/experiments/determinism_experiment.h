#pragma once
// Determinism floor (docs/determinism.md): how often each lane's greedy answers change on their
// own, so that a candidate's differences can be judged against it. Per lane, in order:
//   repeatability  the prompt set `repeats` times at concurrency 1 (phases repeat-1 ... repeat-K),
//                  the prefix cache emptied before each pass where the server allows it;
//   batch          once at `batch_concurrency` (phase batch-cN), against repeat-1;
//   cache          a cold pass right after a reset (cache-cold), then a warm one (cache-warm),
//                  with the server's prefix-cache hit counter read around the warm pass so that
//                  a warm pass which reused nothing is not counted as invariance.
// Each check gives a flip rate with its Wilson interval and every flip's first divergent token
// with the reference pass's margin there; the floor is the prompts flipped by any check.
// summary.json: lanes.<id>.determinism; answers in determinism/<lane>.json.
#include "core/plan/prompt_set.h"
#include "core/record/determinism_floor.h"
#include "core/run/experiments/experiment.h"

namespace lb::run {

class DeterminismExperiment : public Experiment {
 public:
  void run(ExperimentContext& ctx) override;
};

// One lane's checks and floor as lanes.<id>.determinism records them (also a regression's
// "floor" option, on its baseline), every pass's answers written to `answers_file`.
record::DeterminismFloor measure_floor(ExperimentContext& ctx, LaneRuntime& lane,
                                       const plan::DeterminismExperiment& p,
                                       const plan::PromptSet& set, const std::string& answers_file);

}  // namespace lb::run
