#pragma once
// Lane API keys in the OS keyring (the freedesktop Secret Service: GNOME Keyring, KWallet, ...)
// through libsecret's synchronous API. A key is stored under the workspace's id, the lane's id
// and the endpoint's host (plan/api_key_source.h), so a lane in another workspace, or pointed at
// another host, never receives it. Plans and workspace files only ever hold the reference
// "keyring:<lane-id>", never the key.
// Plain C++ on purpose: libsecret's GLib headers stay out of every Qt translation unit.
// Each call is one D-Bus round trip to a running service (milliseconds); when none is running
// the call fails at once with a message that says so.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/plan/api_key_source.h"

namespace lb::ui {

class SecretStore {
 public:
  // Items of the workspace with this id (ui/workspace/workspace.h).
  explicit SecretStore(std::string workspace_id) : workspace_id_(std::move(workspace_id)) {}

  struct Result {
    bool ok = false;
    std::string error;  // what failed and what to do about it; never contains the key
  };

  // Stores (or replaces) the key of the lane at that host.
  Result store(const plan::KeyringItem& item, const std::string& key) const;
  // Stores each in turn and stops at the first that fails: its result and its index in KEYS.
  struct KeyToKeep {
    plan::KeyringItem item;
    std::string key;
  };
  struct BatchResult {
    Result result;
    std::size_t failed_at = 0;  // meaningful when !result.ok
  };
  BatchResult store_all(const std::vector<KeyToKeep>& keys) const;
  // The key of the lane at that host; nullopt with an empty `error` when none is stored, nullopt
  // with the reason when the keyring cannot be read.
  std::optional<std::string> lookup(const plan::KeyringItem& item, std::string* error) const;
  // Removes the lane's keys, at every host; removing a key that is not there succeeds.
  Result remove(const std::string& lane_id) const;

  // "keyring:<lane-id>", the only form a plan or workspace file holds.
  static std::string reference_for(const std::string& lane_id);
  // The lane id of a "keyring:<lane-id>" reference; nullopt for anything else.
  static std::optional<std::string> lane_of_reference(const std::string& reference);

 private:
  std::string workspace_id_;
};

}  // namespace lb::ui
