#pragma once
// The one monotonic clock every timestamp uses: the client's send and arrival stamps, the load
// schedule, the simulator's server stamps and the workbench's elapsed time, all in steady_clock
// nanoseconds so any two can be subtracted. Header-only, so the simulator (which does not link
// the client) reads the same clock.
#include <chrono>
#include <cstdint>

namespace lb {

inline int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace lb
