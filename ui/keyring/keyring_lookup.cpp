#include "ui/keyring/keyring_lookup.h"

#include "plan/api_key_source.h"
#include "ui/keyring/secret_store.h"

namespace lb::ui {

void register_keyring_lookup() {
  // Called from the run's engine thread: SecretStore keeps no state and each call is one
  // synchronous round trip, so a fresh store per lookup is safe.
  plan::set_keyring_lookup([](const std::string& lane_id, std::string* error) {
    return SecretStore().lookup(lane_id, error);
  });
}

}  // namespace lb::ui
