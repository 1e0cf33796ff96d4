#pragma once
// Lane API keys in the OS keyring (the freedesktop Secret Service: GNOME Keyring, KWallet, ...)
// through libsecret's synchronous API. A key is stored under the lane's id; plans and
// workspace files only ever hold the reference "keyring:<lane-id>", never the key.
// Plain C++ on purpose: libsecret's GLib headers stay out of every Qt translation unit.
// Each call is one D-Bus round trip to a running service (milliseconds); when none is running
// the call fails at once with a message that says so.
#include <optional>
#include <string>

namespace lb::ui {

class SecretStore {
 public:
  struct Result {
    bool ok = false;
    std::string error;  // what failed and what to do about it; never contains the key
  };

  // Stores (or replaces) the key of `lane_id`.
  Result store(const std::string& lane_id, const std::string& key) const;
  // The key of `lane_id`; nullopt with an empty `error` when none is stored, nullopt with the
  // reason when the keyring cannot be read.
  std::optional<std::string> lookup(const std::string& lane_id, std::string* error) const;
  // Removes the key of `lane_id`; removing a key that is not there succeeds.
  Result remove(const std::string& lane_id) const;

  // "keyring:<lane-id>", the only form a plan or workspace file holds.
  static std::string reference_for(const std::string& lane_id);
  // The lane id of a "keyring:<lane-id>" reference; nullopt for anything else.
  static std::optional<std::string> lane_of_reference(const std::string& reference);
};

}  // namespace lb::ui
