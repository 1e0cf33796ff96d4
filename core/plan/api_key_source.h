#pragma once
// Where a lane's API key comes from. A lane's api_key_env names either an environment variable
// or, as "keyring:<lane-id>", a key kept in the OS keyring. A lane reads only its own keyring
// item: the reference names the lane's own id, and the item is bound to the workspace, the lane
// id and the endpoint's host, so a plan moved to another workspace, or pointed at another host,
// finds no key and asks for it again. core never links a keyring library: the desktop app
// registers a lookup when it opens a workspace (like the simulator lane starter); without one,
// keyring lanes fail with a message that says how to run them elsewhere.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/plan/environment.h"

namespace lb::plan {

struct Lane;

// Empty when the lane may send the value of its api_key_env variable to its host (the user
// allowed it: Environment::allows_key); otherwise why not and how to allow it (no lane prefix).
// Keyring references are bound to their workspace and host instead and always pass here.
std::string api_key_env_refusal(const Lane& lane, const Environment& env);

// The lane id of a "keyring:<lane-id>" reference; nullopt for anything else (an env var name).
std::optional<std::string> keyring_lane_of(std::string_view api_key_env);
std::string keyring_reference(std::string_view lane_id);

// The endpoint host a keyring item is bound to: the base_url's host in lower case, or "sim" for
// a simulator lane.
std::string keyring_host(std::string_view base_url);

// The keyring item a lane's key is kept in, within the workspace the lookup was registered for.
struct KeyringItem {
  std::string lane_id;
  std::string host;  // keyring_host(lane.base_url)
};

// Returns the key stored for `item`; nullopt with an empty error when none is stored, or
// with the reason when the keyring cannot be read. Must never put the key into `error`.
using KeyringLookup =
    std::function<std::optional<std::string>(const KeyringItem& item, std::string* error)>;
void set_keyring_lookup(KeyringLookup lookup);  // nullptr unregisters
bool keyring_lookup_available();

// A managed lane's launch env value kept in the OS keyring (the lane dialog's "secret" mark):
// the env holds "keyring:<lane-id>/env/<NAME>", and the value is looked up, like a lane's API
// key, when the server starts. A lane reads only its own variables.
std::string launch_env_keyring_reference(std::string_view lane_id, std::string_view name);
// The KeyringItem::lane_id such a variable is stored under ("<lane-id>/env/<NAME>").
std::string launch_env_keyring_id(std::string_view lane_id, std::string_view name);
bool is_launch_env_keyring_reference(std::string_view value);

struct Lane;
// The lane's launch env with each keyring reference replaced by its stored value (each such
// value appended to *secrets); nullopt with *error naming the variable when one cannot be read.
std::optional<std::map<std::string, std::string>> resolve_launch_env(
    const Lane& lane, std::vector<std::string>* secrets, std::string* error);

}  // namespace lb::plan
