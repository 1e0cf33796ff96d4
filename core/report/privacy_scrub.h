#pragma once
// Removing what must not leave the machine: API keys always; and, for the
// shareable qualification summary, also URLs, host names, IP addresses, e-mail
// addresses, user names and filesystem paths. Literal terms (the key values
// named by the plan's api_key_env, the local user and host names, the lanes'
// hosts) are replaced wherever they occur; patterns catch the rest. findings()
// is the final check: a writer refuses to write text that still has any.
#include <string>
#include <vector>

#include "core/plan/environment.h"

namespace lb::report {

struct RunFolder;

inline constexpr const char* kRedacted = "[redacted]";

class PrivacyScrubber {
 public:
  // secrets: exact values never to write (API keys). private_terms: words that
  // identify a person or machine (user and host names); each at least 3
  // characters to count.
  PrivacyScrubber(std::vector<std::string> secrets, std::vector<std::string> private_terms);

  // Secrets from the plan's api_key_env variables (read from `env`); private terms
  // from the local user and host names and the hosts of the lanes' base URLs.
  static PrivacyScrubber for_run(const RunFolder& folder,
                                 const plan::Environment& env = plan::Environment::of_process());

  // API keys (the literal values and key-like tokens) replaced by kRedacted.
  std::string redact_secrets(const std::string& text) const;
  // Secrets plus URLs, IPv4/IPv6 addresses, e-mail addresses, host names, paths
  // and the private terms.
  std::string redact_private(const std::string& text) const;
  // One line per private item still in TEXT ("IPv4 address", "URL", ...); empty
  // when clean.
  std::vector<std::string> findings(const std::string& text) const;
  // The same for secrets only.
  std::vector<std::string> secret_findings(const std::string& text) const;

 private:
  std::vector<std::string> secrets_;
  std::vector<std::string> terms_;
};

}  // namespace lb::report
