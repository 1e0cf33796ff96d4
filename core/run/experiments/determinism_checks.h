#pragma once
// The determinism floor's arithmetic: passes of the same greedy prompts on one lane, compared
// with a reference pass prompt by prompt. A prompt flips when any pass's answer differs from the
// reference's; its first divergent token and the reference's top-1/top-2 margin there come from
// the passes' logprobs (compare/token_divergence.h). A prompt that failed in any pass is left
// out of the count.
#include <cstdint>
#include <string>
#include <vector>

#include "core/compare/token_divergence.h"
#include "core/plan/prompt_set.h"
#include "core/record/determinism_floor.h"
#include "core/run/experiments/regression_experiment.h"

namespace lb::run {

struct FlipCheck {
  int64_t prompts_compared = 0;
  std::vector<size_t> compared;           // prompt indexes
  std::vector<size_t> failed;             // prompt indexes left out
  std::vector<size_t> flipped;            // prompt indexes
  std::vector<record::FlipRecord> flips;  // where each flipped prompt parted
};

// `reference` against every pass of `others` (each in prompt order).
FlipCheck compare_passes(const plan::PromptSet& set, const LaneTexts& reference,
                         const std::vector<const LaneTexts*>& others,
                         const compare::DivergenceThresholds& thresholds);

// The check as the record keeps it: counts, the flip rate with its 95 % Wilson interval (NaN
// when nothing was compared), the prompts left out and each flip.
record::FloorCheck flip_check_record(std::string name, const FlipCheck& check,
                                     const plan::PromptSet& set);

// The floor: over the prompts every check compared, those flipped by any of them; its `floor`,
// `counts` (NAMES) and `flipped_prompts`, without the checks.
record::DeterminismFloor combined_floor(const std::vector<const FlipCheck*>& checks,
                                        const std::vector<std::string>& names);

}  // namespace lb::run
