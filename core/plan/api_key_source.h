#pragma once
// Where a lane's API key comes from. A lane's api_key_env names either an environment variable
// or, as "keyring:<lane-id>", a key kept in the OS keyring under that lane id. core never links
// a keyring library: the desktop app registers a lookup at start-up (like the simulator lane
// starter); without one, keyring lanes fail with a message that says how to run them elsewhere.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace lb::plan {

// The lane id of a "keyring:<lane-id>" reference; nullopt for anything else (an env var name).
std::optional<std::string> keyring_lane_of(std::string_view api_key_env);
std::string keyring_reference(std::string_view lane_id);

// Returns the key stored for `lane_id`; nullopt with an empty error when none is stored, or
// with the reason when the keyring cannot be read. Must never put the key into `error`.
using KeyringLookup =
    std::function<std::optional<std::string>(const std::string& lane_id, std::string* error)>;
void set_keyring_lookup(KeyringLookup lookup);  // nullptr unregisters
bool keyring_lookup_available();

}  // namespace lb::plan
