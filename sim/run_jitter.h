#pragma once
// Run-to-run jitter: with run_jitter = s > 0, every request of trial t (its x-sim-trial header;
// 0 without one) runs at speed factor exp(s * z_t), z_t a standard normal drawn from (seed, t).
// Prefill and decode both go that much faster (factor > 1) or slower, so the per-trial figures
// of a lane spread by a known amount (about s in log terms) while a trial's requests agree, which
// is what intervals over trials must see through. Deterministic: the same seed and trial give
// the same factor on every platform.
#include <cstdint>
#include <string_view>

namespace lb::sim {

// z_t: a standard normal from splitmix64 of (seed, trial) through Box-Muller.
double run_jitter_normal(uint64_t seed, int64_t trial);
// exp(jitter * z_t); 1 when jitter is 0.
double run_jitter_factor(double jitter, uint64_t seed, int64_t trial);
// The trial of an x-sim-trial header value: a non-negative integer, else 0.
int64_t parse_trial_header(std::string_view value);

}  // namespace lb::sim
