#include "core/run/launch/managed_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <thread>

#include "core/files/safe_file_name.h"
#include "core/net/secret_text.h"
#include "core/plan/api_key_source.h"
#include "core/run/lanes/environment_info.h"

namespace lb::run {
namespace {

constexpr size_t kLogTailLines = 20;
constexpr double kProgressEvery_s = 5.0;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

plan::LaunchSpec with_port(plan::LaunchSpec launch, int port) {
  for (auto& arg : launch.command) arg = plan::with_port(arg, port);
  for (auto& [name, value] : launch.env) value = plan::with_port(value, port);
  launch.ready_url = plan::with_port(launch.ready_url, port);
  return launch;
}

nlohmann::json exit_json(const ServerExit& e) {
  return {{"exited", e.exited},
          {"exit_code", e.exited && e.signal == 0 ? nlohmann::json(e.exit_code) : nullptr},
          {"signal", e.signal != 0 ? nlohmann::json(e.signal) : nullptr},
          {"description", e.describe()}};
}

}  // namespace

const char* to_string(ServerState::Phase phase) {
  switch (phase) {
    case ServerState::Phase::Starting:
      return "starting";
    case ServerState::Phase::Ready:
      return "ready";
    case ServerState::Phase::Failed:
      return "failed";
    case ServerState::Phase::Stopped:
      break;
  }
  return "stopped";
}

int pick_free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  ::close(fd);
  return port;
}

ManagedServer::ManagedServer(plan::Lane lane, std::string run_dir, RunSink& sink,
                             net::StreamClient& client, const std::atomic<bool>& stop,
                             plan::Environment env)
    : lane_(std::move(lane)),
      launch_(*lane_.launch),
      run_dir_(std::move(run_dir)),
      sink_(sink),
      client_(client),
      stop_(stop),
      secrets_(plan::launch_secret_values(launch_)),
      env_(std::move(env)) {}

ManagedServer::~ManagedServer() { stop(); }

void ManagedServer::fail(const std::string& status, const std::string& why) {
  std::string tail = process_ ? process_->output_tail(kLogTailLines) : std::string();
  error_ = "lane " + lane_.id + ": server " + why;
  if (!tail.empty())
    error_ += "\n--- last lines of " + (log_relative_.empty() ? "its output" : log_relative_) +
              " ---\n" + tail;
  record_["status"] = status;
  record_["error"] = net::redact_secret_text(error_, secrets_);
  report(ServerState::Phase::Failed);
}

void ManagedServer::report(ServerState::Phase phase, double waited_s) {
  ServerState state;
  state.lane_id = lane_.id;
  state.phase = phase;
  state.command = record_.value("command", "");
  state.port = port_;
  state.pid = process_ ? process_->pid() : 0;
  state.waited_s = waited_s;
  state.timeout_s = launch_.ready_timeout_s;
  if (phase == ServerState::Phase::Failed) state.error = record_.value("error", "");
  state.exit = exit_text_;
  state.exit_code = exit_code_;
  state.log_path = log_relative_;
  sink_.on_server_state(state);
}

bool ManagedServer::start() {
  const int port =
      plan::uses_port_placeholder(launch_, lane_.base_url) ? pick_free_loopback_port() : 0;
  port_ = port;
  std::string env_error;
  auto env = plan::resolve_launch_env(lane_, &secrets_, &env_error);
  if (env) launch_.env = std::move(*env);
  launch_ = with_port(launch_, port);
  lane_.base_url = plan::with_port(lane_.base_url, port);
  if (launch_.log) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(run_dir_) / "servers", ec);
    log_relative_ = "servers/" + files::safe_file_name(lane_.id) + ".log";
  }
  const std::string shown = net::redact_secret_text(plan::display_command(launch_), secrets_);
  record_ = {{"lane", lane_.id},
             {"command", shown},
             {"base_url", lane_.base_url},
             {"ready_url", launch_.ready_url},
             {"port", port > 0 ? nlohmann::json(port) : nullptr},
             {"log", log_relative_.empty() ? nullptr : nlohmann::json(log_relative_)},
             {"started_at", utc_now_iso8601()},
             {"status", "starting"}};
  sink_.on_message(MessageLevel::Info, "lane " + lane_.id + ": starting server: " + shown);
  report(ServerState::Phase::Starting);
  if (!env) {
    fail("failed", "could not start: " + env_error);
    return false;
  }
  ServerSpawn spawn;
  spawn.argv = launch_.command;
  spawn.inherited = env_;
  spawn.env.assign(launch_.env.begin(), launch_.env.end());
  spawn.log_path = log_relative_.empty() ? "" : run_dir_ + "/" + log_relative_;
  spawn.secrets = secrets_;
  std::string why;
  process_ = ServerProcess::spawn(spawn, &why);
  if (!process_) {
    fail("failed", "could not start: " + why);
    return false;
  }
  record_["pid"] = process_->pid();
  return wait_until_ready();
}

bool ManagedServer::wait_until_ready() {
  const auto t0 = std::chrono::steady_clock::now();
  double next_progress_s = kProgressEvery_s;
  double next_state_s = 1.0;
  for (;;) {
    if (stop_.load()) {
      fail("interrupted", "was stopped before it was ready (the run was interrupted)");
      return false;
    }
    if (const ServerExit e = process_->poll(); e.exited) {
      record_["exit"] = exit_json(e);
      exit_text_ = e.describe();
      exit_code_ = e.signal == 0 ? e.exit_code : -1;
      fail("failed", "exited before it was ready (" + e.describe() + ")");
      return false;
    }
    net::HttpRequest req;
    req.url = launch_.ready_url;
    req.method = "GET";
    req.dialect = net::Dialect::PlainText;
    req.stream = false;
    req.timeouts.connect_ms = 1'000;
    req.timeouts.first_byte_ms = 2'000;
    req.timeouts.total_ms = 3'000;
    if (client_.fetch(req).http_status == 200) break;
    const double waited_s = seconds_since(t0);
    if (waited_s >= launch_.ready_timeout_s) {
      fail("failed", "was not ready after " + std::to_string(std::lround(launch_.ready_timeout_s)) +
                         " s (" + launch_.ready_url + " did not answer 200)");
      return false;
    }
    if (waited_s >= next_state_s) {  // the GUI's ready-wait progress, once a second
      report(ServerState::Phase::Starting, waited_s);
      next_state_s += 1.0;
    }
    if (waited_s >= next_progress_s) {
      sink_.on_message(MessageLevel::Info,
                       "lane " + lane_.id + ": waiting for " + launch_.ready_url + " (" +
                           std::to_string(std::lround(waited_s)) + " s of " +
                           std::to_string(std::lround(launch_.ready_timeout_s)) + " s)");
      next_progress_s += kProgressEvery_s;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  const double ready_s = seconds_since(t0);
  record_["status"] = "ready";
  record_["ready_after_s"] = ready_s;
  char line[64];
  std::snprintf(line, sizeof line, "%.1f s", ready_s);
  sink_.on_message(MessageLevel::Info, "lane " + lane_.id + ": server ready after " + line +
                                           " (pid " + std::to_string(process_->pid()) + ")");
  report(ServerState::Phase::Ready, ready_s);
  return true;
}

void ManagedServer::stop() {
  if (!process_) return;
  if (const ServerExit e = process_->poll(); e.exited && record_.value("status", "") == "ready") {
    record_["status"] = "exited";
    record_["error"] =
        "lane " + lane_.id + ": server exited during its experiments (" + e.describe() + ")";
    sink_.on_message(MessageLevel::Error, record_["error"].get<std::string>());
  }
  const StopOutcome out =
      process_->stop(plan::stop_signal_number(launch_.stop_signal), launch_.stop_grace_s);
  if (!record_.contains("exit")) {
    record_["exit"] = exit_json(out.exit);
    exit_text_ = out.exit.describe();
    exit_code_ = out.exit.exited && out.exit.signal == 0 ? out.exit.exit_code : -1;
  }
  record_["killed_after_grace"] = out.killed_after_grace;
  record_["stopped_at"] = utc_now_iso8601();
  if (record_.value("status", "") == "ready") record_["status"] = "stopped";
  if (out.killed_after_grace) {
    char grace[32];
    std::snprintf(grace, sizeof grace, "%g", launch_.stop_grace_s);
    sink_.on_message(MessageLevel::Warning, "lane " + lane_.id + ": server ignored " +
                                                launch_.stop_signal + " for " + grace +
                                                " s; killed its process group");
  }
  const std::string status = record_.value("status", "");
  if (status == "stopped" || status == "exited")
    report(status == "stopped" ? ServerState::Phase::Stopped : ServerState::Phase::Failed);
  process_.reset();
}

}  // namespace lb::run
