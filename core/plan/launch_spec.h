#pragma once
// A managed lane's "launch" block: the server LaneBench starts before the lane's experiments and
// stops after them (docs/plan-file.md, "Managed lanes"). The command is an argument list run
// without a shell; "{port}" in the command, the ready URL, the env values or the lane's base_url
// stands for a free loopback port LaneBench picks when it starts the server.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::plan {

inline constexpr std::string_view kPortPlaceholder = "{port}";

struct LaunchSpec {
  std::vector<std::string> command;        // argv; command[0] is looked up in PATH
  std::map<std::string, std::string> env;  // added to LaneBench's own environment
  std::string ready_url;                   // answers 200 once the server takes requests
  double ready_timeout_s = 300;            // from start until ready
  std::string stop_signal = "SIGTERM";     // sent to the server's process group
  double stop_grace_s = 10;                // then SIGKILL to the whole group
  bool log = true;                         // keep stdout+stderr as servers/<lane>.log
};

// Environment variables whose values are secrets: names ending in _KEY, _TOKEN, _SECRET or
// _PASSWORD (case-insensitive). Their values never reach the run folder, logs or messages.
bool is_secret_env_name(std::string_view name);
// The secret values of a launch block's env (each non-empty).
std::vector<std::string> launch_secret_values(const LaunchSpec& launch);

// The signal number of "SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2" (or the
// name without "SIG"); 0 for anything else.
int stop_signal_number(std::string_view name);

// Every occurrence of "{port}" replaced.
std::string with_port(std::string text, int port);
bool uses_port_placeholder(const LaunchSpec& launch, std::string_view base_url);

// The command line as it runs: env assignments (secret values shown as "[redacted]"), then each
// argument, quoted for a POSIX shell where needed. For showing only; nothing runs through a shell.
std::string display_command(const LaunchSpec& launch);

// The launch block as written to plan.json: secret env values replaced by "[redacted]".
// How a launch block's secret-named env values are written: a run's plan.json writes
// "[redacted]"; a workspace's lanes.json keeps keyring references (plan/api_key_source.h) and
// writes any other value empty.
enum class SecretEnvValues { Redacted, KeyringReferencesOnly };
nlohmann::json launch_json(const LaunchSpec& launch,
                           SecretEnvValues secrets = SecretEnvValues::Redacted);

}  // namespace lb::plan
