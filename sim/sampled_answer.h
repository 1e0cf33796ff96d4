#pragma once
// What one sample says at temperature > 0. A reference answer's sampled distribution has the
// reference wording first, the FP8 wording variant behind it (more likely as the temperature
// rises), and a closing sentence drawn from a few; the FP8 drift model moves mass within it:
// a Wording prompt makes the variant wording likelier, a FlippedFact prompt (flip_facts=1) gives
// the flipped answer most of the mass. top_p keeps the smallest set of variants holding that
// much probability. Every draw comes from the sample seed, so a sample is a function of
// (prompt, seed): two lanes of one profile sent the same seed say the same thing, and lanes
// whose distributions differ part exactly where the shifted mass lies.
#include <cstdint>
#include <string>

#include "answer_book.h"

namespace lb::sim {

struct SamplingDraw {
  double temperature = 0;  // > 0
  double top_p = 1;
  uint64_t sample_seed = 0;  // from the request's seed (or the lane's request counter)
};

// The sample of a reference answer under the lane's drift kind for this prompt.
std::string sampled_reference(const ReferenceAnswer& ref, DriftKind drift,
                              const SamplingDraw& draw);
// The sample of filler text (prompts with no reference answer): a few wording swaps.
std::string sampled_filler(const std::string& text, const SamplingDraw& draw);

}  // namespace lb::sim
