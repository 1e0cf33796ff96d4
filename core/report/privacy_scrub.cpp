#include "report/privacy_scrub.h"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>

#include "plan/plan.h"
#include "report/json_access.h"
#include "report/run_folder.h"

namespace lb::report {
namespace {

struct Pattern {
  const char* what;
  std::regex re;
  const char* replacement = "[redacted]";  // "$1[redacted]" keeps a matched leading delimiter
};

const std::vector<Pattern>& secret_patterns() {
  static const std::vector<Pattern> p = {
      {"API key", std::regex(R"(\b(sk|pk|rk|hf|ghp|gho|xox[abp])[-_][A-Za-z0-9_\-]{8,})")},
      {"bearer token", std::regex(R"(\b[Bb]earer\s+[A-Za-z0-9._~+/=\-]{8,})")},
      {"credential assignment",
       std::regex(R"(\b(api[_-]?key|token|secret|password|passwd)\s*[:=]\s*[^\s,;"']{4,})",
                  std::regex::icase)}};
  return p;
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
      {"host name",
       std::regex(
           R"(\b([A-Za-z0-9]([A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+(?!(json|jsonl|txt|md|html|csv|svg|pdf|py|bin|pt|pth|safetensors|gguf|yaml|yml|prom|sh)\b)[A-Za-z]{2,24}\b)")},
      {"filesystem path",
       std::regex(
           R"((^|[\s"'(=:,])(~/[^\s"'<>]*|/[A-Za-z0-9._\-]+(/[A-Za-z0-9._\-]*)+|[A-Za-z]:\\[^\s"'<>]*))"),
       "$1[redacted]"}};
  return p;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Case-insensitive literal replacement.
std::string replace_literal(const std::string& text, const std::string& term) {
  if (term.empty()) return text;
  const std::string hay = lower(text), needle = lower(term);
  std::string out;
  size_t at = 0;
  for (size_t hit = hay.find(needle); hit != std::string::npos; hit = hay.find(needle, at)) {
    out += text.substr(at, hit - at) + kRedacted;
    at = hit + needle.size();
  }
  return out + text.substr(at);
}

std::string replace_patterns(std::string text, const std::vector<Pattern>& patterns) {
  for (const auto& p : patterns) text = std::regex_replace(text, p.re, p.replacement);
  return text;
}

std::string host_of(const std::string& url) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return {};
  std::string rest = url.substr(scheme + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const auto at = rest.rfind('@'); at != std::string::npos) rest = rest.substr(at + 1);
  if (!rest.empty() && rest.front() == '[') return rest.substr(1, rest.find(']') - 1);
  return rest.substr(0, rest.find(':'));
}

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
  std::string out = text;
  for (const auto& s : secrets_) out = replace_literal(out, s);
  return replace_patterns(std::move(out), secret_patterns());
}

std::string PrivacyScrubber::redact_private(const std::string& text) const {
  std::string out = redact_secrets(text);
  out = replace_patterns(std::move(out), private_patterns());
  for (const auto& t : terms_) out = replace_literal(out, t);
  return out;
}

std::vector<std::string> PrivacyScrubber::secret_findings(const std::string& text) const {
  std::vector<std::string> out;
  const std::string hay = lower(text);
  for (const auto& s : secrets_)
    if (hay.find(lower(s)) != std::string::npos) out.push_back("API key value");
  for (const auto& p : secret_patterns())
    if (std::regex_search(text, p.re)) out.push_back(p.what);
  return out;
}

std::vector<std::string> PrivacyScrubber::findings(const std::string& text) const {
  std::vector<std::string> out = secret_findings(text);
  for (const auto& p : private_patterns())
    if (std::regex_search(text, p.re)) out.push_back(p.what);
  const std::string hay = lower(text);
  for (const auto& t : terms_)
    if (hay.find(lower(t)) != std::string::npos) out.push_back("user or host name");
  return out;
}

}  // namespace lb::report
