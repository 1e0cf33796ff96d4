#include "report/privacy_scrub.h"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>

#include "net/secret_text.h"
#include "plan/key_transport.h"
#include "plan/plan.h"
#include "report/gate_table.h"
#include "report/json_access.h"
#include "report/run_folder.h"

namespace lb::report {
namespace {

struct Pattern {
  const char* what;
  std::regex re;
  const char* replacement = "[redacted]";  // "$1[redacted]" keeps a matched leading delimiter
};

// "json|streaming|tools|...": the gates experiment's checks whose names are one word.
std::string gate_check_alternatives() {
  std::string out;
  for (const std::string& check : gate_check_names())
    if (std::all_of(check.begin(), check.end(),
                    [](char c) { return std::islower(static_cast<unsigned char>(c)) || c == '_'; }))
      out += (out.empty() ? "" : "|") + check;
  return out;
}

const std::vector<Pattern>& private_patterns() {
  static const std::vector<Pattern> p = {
      {"URL", std::regex(R"(\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s"'<>]+)")},
      {"e-mail address", std::regex(R"([A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+)")},
      {"IPv4 address",
       std::regex(R"(\b(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}\b)")},
      // "::" forms, or at least five hex groups: clock times (12:30:45) have
      // three.
      {"IPv6 address",
       std::regex(
           R"((^|[^0-9A-Za-z:])([0-9A-Fa-f]{0,4}::[0-9A-Fa-f:]*[0-9A-Fa-f]|[0-9A-Fa-f]{0,4}::(?=[^0-9A-Za-z:]|$)|([0-9A-Fa-f]{1,4}:){4,7}[0-9A-Fa-f]{1,4}))"),
       "$1[redacted]"},
      // Not the gate table's own row keys ("gates.streaming", "gates.tools"): they look like a
      // host name, but name a check of the product; one more label ("gates.tools.example.com")
      // makes it a host again.
      {"host name",
       std::regex(
           R"(\b(?!gates\.()" + gate_check_alternatives() +
           R"()\b(?![.\-]?[A-Za-z0-9]))([A-Za-z0-9]([A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+(?!(json|jsonl|txt|md|html|csv|svg|pdf|py|bin|pt|pth|safetensors|gguf|yaml|yml|prom|sh)\b)[A-Za-z]{2,24}\b)")},
      {"filesystem path",
       std::regex(
           R"((^|[\s"'(=:,])(~/[^\s"'<>]*|/[A-Za-z0-9._\-]+(/[A-Za-z0-9._\-]*)+|[A-Za-z]:\\[^\s"'<>]*))"),
       "$1[redacted]"}};
  return p;
}

// Case-insensitive literal replacement (net/secret_text.h).
std::string replace_literal(const std::string& text, const std::string& term) {
  return net::redact_literal(text, term);
}

std::string replace_patterns(std::string text, const std::vector<Pattern>& patterns) {
  for (const auto& p : patterns) text = std::regex_replace(text, p.re, p.replacement);
  return text;
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

PrivacyScrubber PrivacyScrubber::for_run(const RunFolder& folder) {
  std::vector<std::string> secrets, terms;
  for (const auto& lane : json_at(folder.plan, {"lanes"})) {
    // The lane's key from where the lane says it lives: its environment variable or, for a
    // "keyring:<lane-id>" reference, the OS keyring when the program registered a lookup.
    plan::Lane source;
    source.id = string_at(lane, {"id"});
    source.base_url = string_at(lane, {"base_url"});
    source.api_key_env = string_at(lane, {"api_key_env"});
    std::string ignored;
    if (auto key = plan::resolve_api_key(source, &ignored); key && !key->empty())
      secrets.push_back(std::move(*key));
    terms.push_back(host_of(string_at(lane, {"base_url"})));
  }
  for (const auto& [id, lane] : json_at(folder.environment, {"lanes"}).items()) {
    terms.push_back(host_of(string_at(lane, {"base_url"})));
    terms.push_back(host_of(string_at(lane, {"served_at"})));
  }
  if (const passwd* pw = getpwuid(getuid())) terms.push_back(pw->pw_name);
  if (const char* user = std::getenv("USER")) terms.push_back(user);
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) terms.push_back(host);
  return PrivacyScrubber(std::move(secrets), std::move(terms));
}

std::string PrivacyScrubber::redact_secrets(const std::string& text) const {
  return net::redact_secret_text(text, secrets_);
}

std::string PrivacyScrubber::redact_private(const std::string& text) const {
  std::string out = redact_secrets(text);
  out = replace_patterns(std::move(out), private_patterns());
  for (const auto& t : terms_) out = replace_literal(out, t);
  return out;
}

std::vector<std::string> PrivacyScrubber::secret_findings(const std::string& text) const {
  return net::secret_text_findings(text, secrets_);
}

std::vector<std::string> PrivacyScrubber::findings(const std::string& text) const {
  std::vector<std::string> out = secret_findings(text);
  for (const auto& p : private_patterns())
    if (std::regex_search(text, p.re)) out.push_back(p.what);
  const std::string hay = net::lower_ascii(text);
  for (const auto& t : terms_)
    if (hay.find(net::lower_ascii(t)) != std::string::npos) out.push_back("user or host name");
  return out;
}

}  // namespace lb::report
