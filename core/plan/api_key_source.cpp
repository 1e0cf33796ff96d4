#include "core/plan/api_key_source.h"

#include <mutex>

#include "core/plan/key_transport.h"
#include "core/plan/plan.h"

namespace lb::plan {
namespace {

constexpr std::string_view kKeyringPrefix = "keyring:";

std::mutex& lookup_mutex() {
  static std::mutex m;
  return m;
}

KeyringLookup& registered_lookup() {
  static KeyringLookup lookup;
  return lookup;
}

std::optional<std::string> from_environment(const Lane& lane, const Environment& env,
                                            std::string* error) {
  if (const std::string refusal = api_key_env_refusal(lane, env); !refusal.empty()) {
    if (error) *error = refusal;
    return std::nullopt;
  }
  std::optional<std::string> value = env.get(lane.api_key_env);
  if (!value || value->empty()) {
    if (error)
      *error = "environment variable " + lane.api_key_env + " (api_key_env) is not set or empty";
    return std::nullopt;
  }
  return value;
}

std::optional<std::string> from_keyring(const Lane& lane, const std::string& key_lane,
                                        std::string* error) {
  const std::string ref = keyring_reference(key_lane);
  if (key_lane != lane.id) {
    if (error)
      *error = "api_key_env " + ref +
               " names another lane's key; a lane reads only its own (keyring:" + lane.id + ")";
    return std::nullopt;
  }
  KeyringLookup lookup;
  {
    std::lock_guard lock(lookup_mutex());
    lookup = registered_lookup();
  }
  if (!lookup) {
    if (error)
      *error = "its key is in the OS keyring (api_key_env " + ref +
               "), which only the LaneBench desktop app reads; put the key in an environment "
               "variable and set api_key_env to its name instead";
    return std::nullopt;
  }
  const KeyringItem item{lane.id, keyring_host(lane.base_url)};
  std::string why;
  auto key = lookup(item, &why);
  if ((!key || key->empty()) && error)
    *error = why.empty() ? "no key is stored in the OS keyring for " + ref + " at " + item.host +
                               " in this workspace (a key is kept per workspace, lane and "
                               "host); enter it again in the lane's dialog"
                         : why;
  if (key && key->empty()) return std::nullopt;
  return key;
}

}  // namespace

std::string api_key_env_refusal(const Lane& lane, const Environment& env) {
  if (keyring_lane_of(lane.api_key_env)) return {};
  const std::string host = keyring_host(lane.base_url);
  if (env.allows_key(lane.api_key_env, host)) return {};
  const std::string& n = lane.api_key_env;
  return "api_key_env names " + n + ", whose value would be sent to " +
         (host == "sim" ? std::string("the built-in simulator") : host) +
         "; LaneBench sends no variable you did not allow, whatever its name, because a plan "
         "can come from anyone. If " +
         n + " holds this lane's key, allow it (lanebench-cli run --allow-env " + n +
         ", or confirm in the workbench, which remembers it for the workspace and host)";
}

std::optional<std::string> keyring_lane_of(std::string_view api_key_env) {
  if (api_key_env.substr(0, kKeyringPrefix.size()) != kKeyringPrefix) return std::nullopt;
  if (api_key_env.size() == kKeyringPrefix.size()) return std::nullopt;
  return std::string(api_key_env.substr(kKeyringPrefix.size()));
}

std::string keyring_host(std::string_view base_url) {
  if (base_url.substr(0, 4) == "sim:") return "sim";
  return lowercase_host(url_host(base_url));
}

std::string keyring_reference(std::string_view lane_id) {
  return std::string(kKeyringPrefix) + std::string(lane_id);
}

void set_keyring_lookup(KeyringLookup lookup) {
  std::lock_guard lock(lookup_mutex());
  registered_lookup() = std::move(lookup);
}

bool keyring_lookup_available() {
  std::lock_guard lock(lookup_mutex());
  return static_cast<bool>(registered_lookup());
}

std::optional<std::string> resolve_api_key(const Lane& lane, const Environment& env,
                                           std::string* error) {
  if (lane.api_key_env.empty()) return std::nullopt;
  if (auto key_lane = keyring_lane_of(lane.api_key_env))
    return from_keyring(lane, *key_lane, error);
  return from_environment(lane, env, error);
}

std::string launch_env_keyring_id(std::string_view lane_id, std::string_view name) {
  return std::string(lane_id) + "/env/" + std::string(name);
}

std::string launch_env_keyring_reference(std::string_view lane_id, std::string_view name) {
  return std::string(kKeyringPrefix) + launch_env_keyring_id(lane_id, name);
}

bool is_launch_env_keyring_reference(std::string_view value) {
  return value.substr(0, kKeyringPrefix.size()) == kKeyringPrefix &&
         value.find("/env/") != std::string_view::npos;
}

std::optional<std::map<std::string, std::string>> resolve_launch_env(
    const Lane& lane, std::vector<std::string>* secrets, std::string* error) {
  std::map<std::string, std::string> env = lane.launch ? lane.launch->env : decltype(env){};
  const std::string own = lane.id.substr(0, lane.id.find('['));  // a sweep point reads its lane's
  for (auto& [name, value] : env) {
    if (!is_launch_env_keyring_reference(value)) continue;
    const std::string where = "env " + name + " (" + value + ")";
    if (value != launch_env_keyring_reference(own, name)) {
      *error = where + " names another lane's or variable's value; a lane reads only its own (" +
               launch_env_keyring_reference(own, name) + ")";
      return std::nullopt;
    }
    KeyringLookup lookup;
    {
      std::lock_guard lock(lookup_mutex());
      lookup = registered_lookup();
    }
    if (!lookup) {
      *error = where + " is kept in the OS keyring, which only the LaneBench desktop app reads";
      return std::nullopt;
    }
    std::string why;
    auto stored = lookup({launch_env_keyring_id(own, name), keyring_host(lane.base_url)}, &why);
    if (!stored || stored->empty()) {
      *error = why.empty() ? where +
                                 ": nothing is stored in the OS keyring for it in this "
                                 "workspace; enter it again in the lane's dialog"
                           : where + ": " + why;
      return std::nullopt;
    }
    value = *stored;
    if (secrets) secrets->push_back(value);
  }
  return env;
}

}  // namespace lb::plan
