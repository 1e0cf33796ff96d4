#pragma once
// Lets core resolve "keyring:<lane-id>" API key references through SecretStore. The desktop app
// registers this at start-up; the CLI does not, so keyring lanes there fail with advice.
namespace lb::ui {
void register_keyring_lookup();
}
