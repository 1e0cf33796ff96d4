#include "sim_process.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

extern char** environ;

namespace lb::bench {
namespace {

sockaddr_in loopback(int port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

// A port the kernel says is free now (bound to 0, read back, released).
int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in a = loopback(0);
  socklen_t len = sizeof a;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  close(fd);
  return port;
}

bool accepts(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  const sockaddr_in a = loopback(port);
  const bool ok = connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0;
  close(fd);
  return ok;
}

}  // namespace

bool SimProcess::start(const std::string& program, std::vector<std::string> args,
                       std::string* error, bool normal_priority) {
  port_ = free_port();
  if (port_ == 0) {
    *error = "no free loopback port";
    return false;
  }
  args.insert(args.begin(), program);
  args.push_back("--port");
  args.push_back(std::to_string(port_));
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Only a real-time bench has a priority to take back (one under SCHED_IDLE or nice may keep
  // its own).
  const int policy = sched_getscheduler(0) & ~SCHED_RESET_ON_FORK;
  if (normal_priority && (policy == SCHED_FIFO || policy == SCHED_RR)) {
    sched_param param{};
    param.sched_priority = 0;
    posix_spawnattr_setschedpolicy(&attr, SCHED_OTHER);
    posix_spawnattr_setschedparam(&attr, &param);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSCHEDULER);
  }
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, program.c_str(), nullptr, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    *error = "cannot start " + program + ": " + std::strerror(rc);
    return false;
  }
  pid_ = pid;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (std::chrono::steady_clock::now() < until) {
    if (accepts(port_)) return true;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = 0;
      *error = program + " exited before it listened";
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  *error = program + " did not listen on port " + std::to_string(port_) + " within 15 s";
  return false;
}

SimProcess::~SimProcess() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  int status = 0;
  waitpid(pid_, &status, 0);
}

}  // namespace lb::bench
