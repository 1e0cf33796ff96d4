#include "core/run/launch/server_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <map>
#include <optional>

#include "core/files/background_thread.h"
#include "core/net/secret_text.h"
#include "core/run/launch/server_process_groups.h"

namespace lb::run {
namespace {

constexpr size_t kTailBytes = 16 * 1024;
constexpr size_t kLongestLine = 64 * 1024;

std::vector<std::string> merged_environment(
    const plan::Environment& inherited,
    const std::vector<std::pair<std::string, std::string>>& extra) {
  plan::Environment::Variables env = inherited.variables();
  for (const auto& [name, value] : extra) env[name] = value;
  std::vector<std::string> out;
  for (const auto& [name, value] : env) out.push_back(name + "=" + value);
  return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Spawns with stdin from /dev/null, stdout+stderr into `out_fd`, in a new process group, with
// default signal dispositions and no blocked signals.
int spawn_process(std::vector<std::string> argv, std::vector<std::string> env, int out_fd,
                  pid_t& pid) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
  posix_spawn_file_actions_adddup2(&fa, out_fd, 2);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  posix_spawn_file_actions_addclosefrom_np(&fa, 3);
#endif
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGCHLD})
    sigaddset(&defaults, s);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  auto args = pointers(argv);
  auto envp = pointers(env);
  const int rc = posix_spawnp(&pid, args[0], &fa, &attr, args.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  return rc;
}

bool group_gone(pid_t pgid) { return ::kill(-pgid, 0) == -1 && errno == ESRCH; }

}  // namespace

std::string ServerExit::describe() const {
  if (!exited) return "still running";
  if (signal != 0)
    return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit code " + std::to_string(exit_code);
}

std::unique_ptr<ServerProcess> ServerProcess::spawn(const ServerSpawn& spec, std::string* error) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    *error = std::string("cannot make a pipe: ") + std::strerror(errno);
    return nullptr;
  }
  std::unique_ptr<ServerProcess> p(new ServerProcess());
  p->secrets_ = spec.secrets;
  if (!spec.log_path.empty()) {
    p->log_fd_ = ::open(spec.log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (p->log_fd_ < 0) {
      *error = "cannot write " + spec.log_path + ": " + std::strerror(errno);
      ::close(fds[0]);
      ::close(fds[1]);
      return nullptr;
    }
  }
  const int rc =
      spawn_process(spec.argv, merged_environment(spec.inherited, spec.env), fds[1], p->pid_);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    p->pid_ = -1;
    *error = "cannot start " + spec.argv.front() + ": " + std::strerror(rc);
    return nullptr;
  }
  remember_server_group(p->pid_);
  p->out_fd_ = fds[0];
  p->reader_ = std::thread([raw = p.get()] {
    files::become_background_thread("lb-server-log");
    raw->copy_output();
  });
  return p;
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0 && !stopped_) stop(SIGKILL, 1.0);
  finish_output();
}

ServerExit ServerProcess::poll() {
  if (exit_.exited || pid_ <= 0) return exit_;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) {
    exit_.exited = true;
    if (WIFEXITED(status)) exit_.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) exit_.signal = WTERMSIG(status);
  }
  return exit_;
}

StopOutcome ServerProcess::stop(int signal, double grace_s) {
  StopOutcome out;
  if (pid_ <= 0 || stopped_) {
    out.exit = exit_;
    return out;
  }
  // Once the leader is reaped and its group empty, the id may belong to someone else: no signal.
  auto done = [this] { return poll().exited && group_gone(pid_); };
  if (!done()) {
    ::kill(-pid_, signal);
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<int64_t>(grace_s * 1000));
    while (!done() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!done()) {
    out.killed_after_grace = true;
    ::kill(-pid_, SIGKILL);
    if (!exit_.exited) {
      int status = 0;
      ::waitpid(pid_, &status, 0);
      exit_.exited = true;
      if (WIFEXITED(status)) exit_.exit_code = WEXITSTATUS(status);
      if (WIFSIGNALED(status)) exit_.signal = WTERMSIG(status);
    }
  }
  stopped_ = true;
  forget_server_group(pid_);
  finish_output();
  out.exit = exit_;
  return out;
}

std::string ServerProcess::output_tail(size_t lines) const {
  std::lock_guard lock(tail_mutex_);
  size_t end = tail_.size();
  if (end > 0 && tail_[end - 1] == '\n') --end;
  size_t start = end;
  for (size_t n = 0; start > 0; --start)
    if (tail_[start - 1] == '\n' && ++n == lines) break;
  return tail_.substr(start, end - start);
}

void ServerProcess::copy_output() {
  std::string pending;
  auto emit = [&](std::string text) {
    text = net::redact_secret_text(std::move(text), secrets_);
    if (log_fd_ >= 0) {
      for (size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(log_fd_, text.data() + done, text.size() - done);
        if (n <= 0) break;
        done += static_cast<size_t>(n);
      }
    }
    std::lock_guard lock(tail_mutex_);
    tail_ += text;
    if (tail_.size() > kTailBytes) tail_.erase(0, tail_.size() - kTailBytes);
  };
  char buf[8192];
  // Once the server is stopped, what is left in the pipe is drained for at most this long: a
  // process that left the group could otherwise hold the pipe open for ever.
  std::optional<std::chrono::steady_clock::time_point> drain_until;
  for (;;) {
    if (stop_reading_.load() && !drain_until)
      drain_until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    if (drain_until && std::chrono::steady_clock::now() > *drain_until) break;
    pollfd pfd{out_fd_, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, 100);
    if (ready == 0) {
      if (stop_reading_.load()) break;
      continue;
    }
    const ssize_t n = ::read(out_fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pending.append(buf, static_cast<size_t>(n));
    const size_t last_newline = pending.rfind('\n');
    if (last_newline != std::string::npos) {
      emit(pending.substr(0, last_newline + 1));
      pending.erase(0, last_newline + 1);
    } else if (pending.size() > kLongestLine) {
      emit(std::move(pending));
      pending.clear();
    }
  }
  if (!pending.empty()) emit(std::move(pending) + "\n");
}

void ServerProcess::finish_output() {
  stop_reading_ = true;
  if (reader_.joinable()) reader_.join();
  if (out_fd_ >= 0) ::close(out_fd_);
  if (log_fd_ >= 0) ::close(log_fd_);
  out_fd_ = log_fd_ = -1;
}

}  // namespace lb::run
