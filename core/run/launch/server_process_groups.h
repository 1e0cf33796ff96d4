#pragma once
// The process groups of the servers LaneBench started and has not yet stopped, kept where a
// signal handler can reach them: a second Ctrl-C that ends the program at once first kills
// every such group, so no server outlives LaneBench.
#include <sys/types.h>

namespace lb::run {

void remember_server_group(pid_t pgid);
void forget_server_group(pid_t pgid);
// SIGKILL to every remembered group. Async-signal-safe.
void kill_server_groups_now();

}  // namespace lb::run
