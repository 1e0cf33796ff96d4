#pragma once
// Lets core resolve "keyring:<lane-id>" API key references through SecretStore, in the
// workspace with this id. The desktop app registers it whenever it opens a workspace; the CLI
// does not, so keyring lanes there fail with advice.
#include <string>

namespace lb::ui {
void register_keyring_lookup(const std::string& workspace_id);
}
