#include "core/plan/launch_spec.h"

#include "core/plan/api_key_source.h"

#include <signal.h>

#include <algorithm>
#include <cctype>

namespace lb::plan {
namespace {

bool ends_with_ci(std::string_view text, std::string_view suffix) {
  if (text.size() < suffix.size()) return false;
  const std::string_view tail = text.substr(text.size() - suffix.size());
  return std::equal(tail.begin(), tail.end(), suffix.begin(), [](char a, char b) {
    return std::toupper(static_cast<unsigned char>(a)) == b;
  });
}

std::string shell_quoted(const std::string& arg) {
  const bool plain = !arg.empty() && std::all_of(arg.begin(), arg.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("-_./=:,+@%{}").find(c) != std::string_view::npos;
  });
  if (plain) return arg;
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

bool is_secret_env_name(std::string_view name) {
  for (std::string_view suffix : {"_KEY", "_TOKEN", "_SECRET", "_PASSWORD"})
    if (ends_with_ci(name, suffix)) return true;
  return false;
}

std::vector<std::string> launch_secret_values(const LaunchSpec& launch) {
  std::vector<std::string> out;
  for (const auto& [name, value] : launch.env)
    if (is_secret_env_name(name) && !value.empty()) out.push_back(value);
  return out;
}

int stop_signal_number(std::string_view name) {
  if (name.substr(0, 3) == "SIG") name.remove_prefix(3);
  if (name == "TERM") return SIGTERM;
  if (name == "INT") return SIGINT;
  if (name == "HUP") return SIGHUP;
  if (name == "QUIT") return SIGQUIT;
  if (name == "USR1") return SIGUSR1;
  if (name == "USR2") return SIGUSR2;
  return 0;
}

std::string with_port(std::string text, int port) {
  const std::string value = std::to_string(port);
  for (size_t at = text.find(kPortPlaceholder); at != std::string::npos;
       at = text.find(kPortPlaceholder, at + value.size()))
    text.replace(at, kPortPlaceholder.size(), value);
  return text;
}

bool uses_port_placeholder(const LaunchSpec& launch, std::string_view base_url) {
  auto has = [](std::string_view s) { return s.find(kPortPlaceholder) != std::string_view::npos; };
  if (has(base_url) || has(launch.ready_url)) return true;
  if (std::any_of(launch.command.begin(), launch.command.end(), has)) return true;
  return std::any_of(launch.env.begin(), launch.env.end(),
                     [&](const auto& kv) { return has(kv.second); });
}

std::string display_command(const LaunchSpec& launch) {
  std::string out;
  for (const auto& [name, value] : launch.env)
    out += name + "=" + (is_secret_env_name(name) ? "[redacted]" : shell_quoted(value)) + " ";
  for (size_t i = 0; i < launch.command.size(); ++i)
    out += (i ? " " : "") + shell_quoted(launch.command[i]);
  return out;
}

nlohmann::json launch_json(const LaunchSpec& launch, SecretEnvValues secrets) {
  nlohmann::json env = nlohmann::json::object();
  for (const auto& [name, value] : launch.env) {
    if (!is_secret_env_name(name))
      env[name] = value;
    else if (secrets == SecretEnvValues::Redacted)
      env[name] = "[redacted]";
    else
      env[name] = is_launch_env_keyring_reference(value) ? value : std::string();
  }
  return {{"command", launch.command},
          {"env", env},
          {"ready", {{"url", launch.ready_url}, {"timeout_s", launch.ready_timeout_s}}},
          {"stop", {{"signal", launch.stop_signal}, {"grace_s", launch.stop_grace_s}}},
          {"log", launch.log}};
}

}  // namespace lb::plan
