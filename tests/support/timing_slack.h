#pragma once
// Room added to a timing test's upper bound when the code under test runs instrumented.
// scripts/sanitizers.sh sets LANEBENCH_TIMING_SLACK_MS: ASan and TSan slow every call several
// times over, so a bound that leaves a few ms above a scripted delay in the optimised build would
// measure the sanitizer there, not the client. Lower bounds never get slack: instrumentation only
// makes things slower. 0 when the variable is unset, empty, negative or not a number.
#include <cstdlib>

namespace lb::test {

inline double timing_slack_ms() {
  const char* text = std::getenv("LANEBENCH_TIMING_SLACK_MS");
  if (text == nullptr || *text == '\0') return 0.0;
  char* end = nullptr;
  const double ms = std::strtod(text, &end);
  return (*end == '\0' && ms > 0.0) ? ms : 0.0;
}

// The slack, read once per program; tests bring it in with `using lb::test::slack_ms;`.
inline const double slack_ms = timing_slack_ms();

}  // namespace lb::test
