#pragma once
// Open-loop arrival times. Inter-arrival gaps follow a Gamma distribution with
// shape = burstiness and scale = 1 / (rate * burstiness), as `vllm bench serve` draws them:
// burstiness 1 is a Poisson process, < 1 burstier, > 1 more regular; the mean rate is kept.
#include <cstdint>
#include <vector>

namespace lb::run {

struct ArrivalOptions {
  double request_rate_per_s = 0;  // <= 0 or infinite: every request at offset 0
  double burstiness = 1.0;
  uint64_t seed = 0;
};

// Offsets in ns from the phase start, non-decreasing; the first request goes at its own gap
// (as vLLM does), not at 0. At most count requests (0 = no count bound), none at or after
// duration_ns (0 = no time bound).
std::vector<int64_t> arrival_offsets_ns(const ArrivalOptions& options, int64_t count,
                                        int64_t duration_ns = 0);

}  // namespace lb::run
