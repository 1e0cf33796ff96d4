#include "stop_signal.h"

#include <unistd.h>

#include <csignal>

#include "core/run/launch/server_process_groups.h"

namespace lb::cli {
namespace {

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free,
              "the handler may only touch lock-free atomics");

void on_signal(int) {
  if (g_stop.exchange(true)) {
    run::kill_server_groups_now();  // no managed server outlives the program
    _exit(130);
  }
  static const char msg[] =
      "\nstopping: cancelling in-flight requests, keeping what finished (Ctrl-C again to quit)\n";
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, msg, sizeof msg - 1);
}

}  // namespace

const std::atomic<bool>& install_stop_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  return g_stop;
}

}  // namespace lb::cli
