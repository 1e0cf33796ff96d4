#pragma once
// A binomial proportion with its Wilson score interval: how often a fact was lost in a lane's
// samples ("fact lost in 3/16 FP8 samples").
#include <cstdint>

namespace lb::compare {

struct Proportion {
  int64_t count = 0;
  int64_t total = 0;
  double rate = 0;  // count / total; 0 when total is 0
  double lo = 0;    // Wilson score interval at `confidence`
  double hi = 0;
};

// confidence in (0, 1), e.g. 0.95. total 0 gives the whole [0, 1].
Proportion wilson_interval(int64_t count, int64_t total, double confidence = 0.95);

}  // namespace lb::compare
