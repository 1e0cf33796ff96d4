#include "net/secret_text.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace lb::net {
namespace {

struct SecretPattern {
  const char* what;
  std::regex re;
};

const std::vector<SecretPattern>& secret_patterns() {
  static const std::vector<SecretPattern> p = {
      {"API key", std::regex(R"(\b(sk|pk|rk|hf|ghp|gho|xox[abp])[-_][A-Za-z0-9_\-]{8,})")},
      {"bearer token", std::regex(R"(\b[Bb]earer\s+[A-Za-z0-9._~+/=\-]{8,})")},
      {"credential assignment",
       std::regex(R"(\b(api[_-]?key|token|secret|password|passwd)\s*[:=]\s*[^\s,;"']{4,})",
                  std::regex::icase)}};
  return p;
}

bool counts(const std::string& key) { return key.size() >= 4; }

}  // namespace

std::string lower_ascii(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string redact_literal(const std::string& text, const std::string& term) {
  if (term.empty()) return text;
  const std::string hay = lower_ascii(text), needle = lower_ascii(term);
  std::string out;
  size_t at = 0;
  for (size_t hit = hay.find(needle); hit != std::string::npos; hit = hay.find(needle, at)) {
    out += text.substr(at, hit - at) + kRedactedText;
    at = hit + needle.size();
  }
  return out + text.substr(at);
}

std::string redact_secret_text(std::string text, const std::vector<std::string>& keys) {
  // Longest first, so a key inside another does not leave the rest of the longer one behind.
  std::vector<std::string> sorted = keys;
  std::sort(sorted.begin(), sorted.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  for (const auto& key : sorted)
    if (counts(key)) text = redact_literal(text, key);
  for (const auto& p : secret_patterns()) text = std::regex_replace(text, p.re, kRedactedText);
  return text;
}

std::vector<std::string> secret_text_findings(const std::string& text,
                                              const std::vector<std::string>& keys) {
  std::vector<std::string> out;
  const std::string hay = lower_ascii(text);
  for (const auto& key : keys)
    if (counts(key) && hay.find(lower_ascii(key)) != std::string::npos)
      out.push_back("API key value");
  for (const auto& p : secret_patterns())
    if (std::regex_search(text, p.re)) out.push_back(p.what);
  return out;
}

}  // namespace lb::net
