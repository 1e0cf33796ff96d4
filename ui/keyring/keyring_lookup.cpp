#include "ui/keyring/keyring_lookup.h"

#include "core/plan/api_key_source.h"
#include "ui/keyring/secret_store.h"

namespace lb::ui {

void register_keyring_lookup(const std::string& workspace_id) {
  // Called from the run's engine thread: SecretStore keeps only the id and each call is one
  // synchronous round trip, so a fresh store per lookup is safe.
  plan::set_keyring_lookup([workspace_id](const plan::KeyringItem& item, std::string* error) {
    return SecretStore(workspace_id).lookup(item, error);
  });
}

}  // namespace lb::ui
