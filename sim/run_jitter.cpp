#include "run_jitter.h"

#include <charconv>
#include <cmath>
#include <numbers>

namespace lb::sim {
namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// (0, 1]: 53 random bits, never 0, so its logarithm is finite.
double unit(uint64_t& state) { return double((splitmix64(state) >> 11) + 1) * 0x1.0p-53; }

}  // namespace

double run_jitter_normal(uint64_t seed, int64_t trial) {
  uint64_t state = seed ^ (0x5eedf00dULL + 0x100000001b3ULL * static_cast<uint64_t>(trial));
  splitmix64(state);
  const double u1 = unit(state), u2 = unit(state);
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
}

double run_jitter_factor(double jitter, uint64_t seed, int64_t trial) {
  if (!(jitter > 0)) return 1.0;
  return std::exp(jitter * run_jitter_normal(seed, trial));
}

int64_t parse_trial_header(std::string_view value) {
  int64_t t = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), t);
  return ec == std::errc() && end == value.data() + value.size() && t >= 0 ? t : 0;
}

}  // namespace lb::sim
