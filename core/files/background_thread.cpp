#include "core/files/background_thread.h"

#include <pthread.h>
#include <sched.h>

namespace lb::files {

void become_background_thread(const char* name) {
  pthread_setname_np(pthread_self(), name);
  int policy = SCHED_OTHER;
  sched_param param{};
  if (pthread_getschedparam(pthread_self(), &policy, &param) != 0) return;
  if (policy != SCHED_FIFO && policy != SCHED_RR) return;
  param.sched_priority = 0;  // lowering one's own policy needs no privilege
  pthread_setschedparam(pthread_self(), SCHED_OTHER, &param);
}

}  // namespace lb::files
