#include "core/run/launch/server_process_groups.h"

#include <signal.h>

#include <atomic>

namespace lb::run {
namespace {

constexpr int kSlots = 256;
std::atomic<pid_t> g_groups[kSlots];
static_assert(std::atomic<pid_t>::is_always_lock_free, "read from a signal handler");

}  // namespace

void remember_server_group(pid_t pgid) {
  for (auto& slot : g_groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pgid)) return;
  }
}

void forget_server_group(pid_t pgid) {
  for (auto& slot : g_groups) {
    pid_t expected = pgid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

void kill_server_groups_now() {
  for (auto& slot : g_groups)
    if (const pid_t pgid = slot.load(); pgid > 0) ::kill(-pgid, SIGKILL);
}

}  // namespace lb::run
