#pragma once
// A run folder's environment.json as types: the client that measured and, per lane, what its
// server said about itself (model, kind, version, context, /metrics, KV cache configuration),
// how it was reached (TLS, a key over plain http) and the user's notes. Read tolerantly: a member
// of another type reads as absent, never a throw.
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace lb::record {

struct LaneEnvironmentRecord {
  std::string base_url;   // as the plan gave it ("sim:fp8?..." for a simulator lane)
  std::string served_at;  // a simulator lane's loopback address
  std::string model;
  std::string server_kind;     // as the probe named it
  std::string server_version;  // "" when the server did not say
  double max_context_tokens = NAN;
  std::optional<bool> metrics_available;
  std::string tls_verification;        // "enabled" or "DISABLED (insecure)"
  std::string key_over_plain_http_to;  // the host a key went to over http; "" when none did
  std::vector<std::pair<std::string, std::string>> cache_config;  // setting -> value as text
  std::optional<std::vector<std::pair<std::string, std::string>>> notes;  // nullopt: none kept
};

struct EnvironmentRecord {
  std::string client_version;
  std::map<std::string, LaneEnvironmentRecord> lanes;  // by lane id

  const LaneEnvironmentRecord* lane(const std::string& id) const;
};

// environment.json's object; anything else reads as an empty record.
EnvironmentRecord read_environment(const nlohmann::json& environment);

}  // namespace lb::record
