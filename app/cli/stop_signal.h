#pragma once
// Ctrl-C handling for long commands: the first SIGINT (or SIGTERM) asks the run to stop cleanly
// (cancel what is in flight, keep what finished, stop managed servers); a second one kills the
// managed servers' process groups and exits at once with 130.
#include <atomic>

namespace lb::cli {

// Installs the handlers and returns the flag they set. Call once per process.
const std::atomic<bool>& install_stop_signal_handlers();

}  // namespace lb::cli
