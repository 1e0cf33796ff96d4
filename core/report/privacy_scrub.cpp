#include "core/report/privacy_scrub.h"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "core/net/secret_text.h"
#include "core/plan/key_transport.h"
#include "core/plan/plan.h"
#include "core/report/private_patterns.h"
#include "core/report/run_folder.h"
#include "core/text/ascii_text.h"

namespace lb::report {
namespace {

// Case-insensitive literal replacement (net/secret_text.h).
std::string replace_literal(const std::string& text, const std::string& term) {
  return net::redact_literal(text, term);
}

std::string host_of(const std::string& url) { return plan::url_host(url); }

}  // namespace

PrivacyScrubber::PrivacyScrubber(std::vector<std::string> secrets,
                                 std::vector<std::string> private_terms)
    : secrets_(std::move(secrets)), terms_(std::move(private_terms)) {
  std::erase_if(secrets_, [](const std::string& s) { return s.size() < 4; });
  std::erase_if(terms_, [](const std::string& s) { return s.size() < 3; });
  // Longest first, so a term inside another does not leave the rest of the
  // longer one behind.
  auto longest_first = [](const std::string& a, const std::string& b) {
    return a.size() > b.size();
  };
  std::sort(secrets_.begin(), secrets_.end(), longest_first);
  std::sort(terms_.begin(), terms_.end(), longest_first);
}

PrivacyScrubber PrivacyScrubber::for_run(const RunFolder& folder, const plan::Environment& env) {
  std::vector<std::string> secrets, terms;
  for (const record::PlannedLane& lane : folder.plan_headline.lane_details) {
    // The lane's key from where the lane says it lives: its environment variable or, for a
    // "keyring:<lane-id>" reference, the OS keyring when the program registered a lookup.
    plan::Lane source;
    source.id = lane.id;
    source.base_url = lane.base_url;
    source.api_key_env = lane.api_key_env;
    // Read here only to be redacted, never sent: no allowance is needed for that.
    const plan::Environment readable =
        source.api_key_env.empty() ? env : env.allowing_key(source.api_key_env);
    std::string ignored;
    if (auto key = plan::resolve_api_key(source, readable, &ignored); key && !key->empty())
      secrets.push_back(std::move(*key));
    terms.push_back(host_of(lane.base_url));
  }
  for (const auto& [id, lane] : folder.environment.lanes) {
    terms.push_back(host_of(lane.base_url));
    terms.push_back(host_of(lane.served_at));
  }
  if (const passwd* pw = getpwuid(getuid())) terms.push_back(pw->pw_name);
  if (auto user = env.get("USER")) terms.push_back(*user);
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) terms.push_back(host);
  return PrivacyScrubber(std::move(secrets), std::move(terms));
}

std::string PrivacyScrubber::redact_secrets(const std::string& text) const {
  return net::redact_secret_text(text, secrets_);
}

std::string PrivacyScrubber::redact_private(const std::string& text) const {
  std::string out = redact_secrets(text);
  out = redact_private_patterns(std::move(out));
  for (const auto& t : terms_) out = replace_literal(out, t);
  return out;
}

std::vector<std::string> PrivacyScrubber::secret_findings(const std::string& text) const {
  return net::secret_text_findings(text, secrets_);
}

std::vector<std::string> PrivacyScrubber::findings(const std::string& text) const {
  std::vector<std::string> out = secret_findings(text);
  for (auto& what : private_pattern_findings(text)) out.push_back(std::move(what));
  const std::string hay = text::ascii_lower(text);
  for (const auto& t : terms_)
    if (hay.find(text::ascii_lower(t)) != std::string::npos) out.push_back("user or host name");
  return out;
}

}  // namespace lb::report
