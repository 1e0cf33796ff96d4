#pragma once
// How often the load and session drivers report progress and look at the stop flag.
#include <cstdint>

namespace lb::run {

inline constexpr int64_t kProgressEveryNs = 250'000'000;
inline constexpr int64_t kStopPollNs = 50'000'000;

}  // namespace lb::run
