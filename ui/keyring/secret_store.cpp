#include "ui/keyring/secret_store.h"

#include <libsecret/secret.h>

namespace lb::ui {
namespace {

constexpr const char* kReferencePrefix = "keyring:";

// One schema for every lane key: the attributes are the workspace id, the lane id and the host.
// The name is reverse-DNS so other applications' items never match; items of the earlier schema
// (lane id alone) are never read, so such a lane asks for its key again.
const SecretSchema* lane_key_schema() {
  static const SecretSchema schema = {"org.lanebench.LaneApiKey.v2",
                                      SECRET_SCHEMA_NONE,
                                      {{"workspace", SECRET_SCHEMA_ATTRIBUTE_STRING},
                                       {"lane", SECRET_SCHEMA_ATTRIBUTE_STRING},
                                       {"host", SECRET_SCHEMA_ATTRIBUTE_STRING},
                                       {nullptr, SECRET_SCHEMA_ATTRIBUTE_STRING}}};
  return &schema;
}

// GError text with the advice a user needs. "Unreachable" is a bus that cannot be connected
// to or a bus on which no service owns org.freedesktop.secrets.
std::string explain(GError* error, const std::string& doing) {
  const std::string detail = error && error->message ? error->message : "unknown error";
  if (error) g_error_free(error);
  const bool unreachable = detail.find("Could not connect") != std::string::npos ||
                           detail.find("Cannot autolaunch") != std::string::npos ||
                           detail.find("was not provided by any") != std::string::npos ||
                           detail.find("ServiceUnknown") != std::string::npos;
  if (unreachable)
    return "cannot " + doing +
           ": no Secret Service is reachable (start the desktop keyring, e.g. GNOME Keyring "
           "or KWallet, or give the key in an environment variable instead): " +
           detail;
  return "cannot " + doing + " in the OS keyring: " + detail;
}

std::string label_for(const plan::KeyringItem& item) {
  // A launch environment's secret is stored as "<lane-id>/env/<NAME>".
  if (const auto at = item.lane_id.find("/env/"); at != std::string::npos)
    return "LaneBench launch secret " + item.lane_id.substr(at + 5) + " of lane " +
           item.lane_id.substr(0, at) + " at " + item.host;
  return "LaneBench API key for lane " + item.lane_id + " at " + item.host;
}

}  // namespace

SecretStore::Result SecretStore::store(const plan::KeyringItem& item,
                                       const std::string& key) const {
  GError* error = nullptr;
  const gboolean ok = secret_password_store_sync(
      lane_key_schema(), SECRET_COLLECTION_DEFAULT, label_for(item).c_str(), key.c_str(), nullptr,
      &error, "workspace", workspace_id_.c_str(), "lane", item.lane_id.c_str(), "host",
      item.host.c_str(), nullptr);
  if (ok && !error) return {true, {}};
  return {false, explain(error, "store the key of lane " + item.lane_id)};
}

SecretStore::BatchResult SecretStore::store_all(const std::vector<KeyToKeep>& keys) const {
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (Result stored = store(keys[i].item, keys[i].key); !stored.ok) return {stored, i};
  return {{true, {}}, 0};
}

std::optional<std::string> SecretStore::lookup(const plan::KeyringItem& item,
                                               std::string* error_text) const {
  GError* error = nullptr;
  gchar* secret = secret_password_lookup_sync(lane_key_schema(), nullptr, &error, "workspace",
                                              workspace_id_.c_str(), "lane", item.lane_id.c_str(),
                                              "host", item.host.c_str(), nullptr);
  if (error) {
    if (secret) secret_password_free(secret);
    if (error_text) *error_text = explain(error, "read the key of lane " + item.lane_id);
    return std::nullopt;
  }
  if (error_text) error_text->clear();
  if (!secret) return std::nullopt;
  std::string key(secret);
  secret_password_free(secret);  // wipes the copy libsecret made
  return key;
}

SecretStore::Result SecretStore::remove(const std::string& lane_id) const {
  GError* error = nullptr;
  secret_password_clear_sync(lane_key_schema(), nullptr, &error, "workspace", workspace_id_.c_str(),
                             "lane", lane_id.c_str(), nullptr);
  if (!error) return {true, {}};
  return {false, explain(error, "remove the key of lane " + lane_id)};
}

std::string SecretStore::reference_for(const std::string& lane_id) {
  return kReferencePrefix + lane_id;
}

std::optional<std::string> SecretStore::lane_of_reference(const std::string& reference) {
  const std::string prefix = kReferencePrefix;
  if (reference.size() <= prefix.size() || reference.compare(0, prefix.size(), prefix) != 0)
    return std::nullopt;
  return reference.substr(prefix.size());
}

}  // namespace lb::ui
