#include "plan/api_key_source.h"

#include <cstdlib>
#include <mutex>

#include "plan/plan.h"

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

std::optional<std::string> from_environment(const Lane& lane, std::string* error) {
  const char* value = std::getenv(lane.api_key_env.c_str());
  if (value == nullptr || *value == '\0') {
    if (error)
      *error = "environment variable " + lane.api_key_env + " (api_key_env) is not set or empty";
    return std::nullopt;
  }
  return std::string(value);
}

std::optional<std::string> from_keyring(const std::string& key_lane, std::string* error) {
  KeyringLookup lookup;
  {
    std::lock_guard lock(lookup_mutex());
    lookup = registered_lookup();
  }
  const std::string ref = keyring_reference(key_lane);
  if (!lookup) {
    if (error)
      *error = "its key is in the OS keyring (api_key_env " + ref +
               "), which only the LaneBench desktop app reads; put the key in an environment "
               "variable and set api_key_env to its name instead";
    return std::nullopt;
  }
  std::string why;
  auto key = lookup(key_lane, &why);
  if ((!key || key->empty()) && error)
    *error = why.empty() ? "no key is stored in the OS keyring for " + ref +
                               "; enter it again in the lane's dialog"
                         : why;
  if (key && key->empty()) return std::nullopt;
  return key;
}

}  // namespace

std::optional<std::string> keyring_lane_of(std::string_view api_key_env) {
  if (api_key_env.substr(0, kKeyringPrefix.size()) != kKeyringPrefix) return std::nullopt;
  if (api_key_env.size() == kKeyringPrefix.size()) return std::nullopt;
  return std::string(api_key_env.substr(kKeyringPrefix.size()));
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

std::optional<std::string> resolve_api_key(const Lane& lane, std::string* error) {
  if (lane.api_key_env.empty()) return std::nullopt;
  if (auto key_lane = keyring_lane_of(lane.api_key_env)) return from_keyring(*key_lane, error);
  return from_environment(lane, error);
}

}  // namespace lb::plan
