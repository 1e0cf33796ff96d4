#pragma once
// The run engine's helper threads (building request bodies ahead, writing the run folder) do work
// that can wait a few milliseconds; the scheduler and the I/O thread cannot. A helper thread calls
// this first: it names itself (as top, perf and gdb show it) and, when the process was given
// real-time priority (`chrt -f 50`), drops to the normal policy, so that it never holds a core the
// send path is waiting for.
namespace lb::files {

void become_background_thread(const char* name);

}  // namespace lb::files
