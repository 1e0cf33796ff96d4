#include "core/net/secret_text.h"
#include "core/text/ascii_text.h"

#include <re2/re2.h>
#include <algorithm>
#include <cctype>

namespace lb::net {
namespace {

// RE2 runs in time linear in the text and never recurses per character: std::regex overflowed
// the stack on "token=" followed by 30,000 characters and on a 64 KiB "sk-..." token.
struct SecretPattern {
  const char* what;
  const re2::RE2& re;
};

// Bytes, as the text is written: a server's error text need not be valid UTF-8.
re2::RE2::Options quiet() {
  re2::RE2::Options o;
  o.set_log_errors(false);
  o.set_encoding(re2::RE2::Options::EncodingLatin1);
  return o;
}

const std::vector<SecretPattern>& secret_patterns() {
  static const re2::RE2 api_key(R"(\b(sk|pk|rk|hf|ghp|gho|xox[abp])[-_][A-Za-z0-9_\-]{8,})",
                                quiet());
  static const re2::RE2 bearer(R"(\b[Bb]earer\s+[A-Za-z0-9._~+/=\-]{8,})", quiet());
  static const re2::RE2 assignment(
      R"((?i)\b(api[_-]?key|token|secret|password|passwd)\s*[:=]\s*[^\s,;"']{4,})", quiet());
  static const std::vector<SecretPattern> p = {
      {"API key", api_key}, {"bearer token", bearer}, {"credential assignment", assignment}};
  return p;
}

bool counts(const std::string& key) { return key.size() >= 4; }

}  // namespace

std::string redact_literal(const std::string& text, const std::string& term) {
  if (term.empty()) return text;
  const std::string hay = text::ascii_lower(text), needle = text::ascii_lower(term);
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
  for (const auto& p : secret_patterns()) re2::RE2::GlobalReplace(&text, p.re, kRedactedText);
  return text;
}

namespace {

bool redact_string(std::string& text, const std::vector<std::string>& keys) {
  bool changed = false;
  for (const auto& key : keys) {
    if (!counts(key) || text::ascii_lower(text).find(text::ascii_lower(key)) == std::string::npos)
      continue;
    text = redact_literal(text, key);
    changed = true;
  }
  return changed;
}

}  // namespace

bool redact_secret_values(nlohmann::json& value, const std::vector<std::string>& keys) {
  if (value.is_string()) return redact_string(value.get_ref<std::string&>(), keys);
  bool changed = false;
  if (value.is_array()) {
    for (auto& item : value) changed = redact_secret_values(item, keys) || changed;
  } else if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (auto& [name, item] : value.items()) {
      std::string n = name;
      changed = redact_string(n, keys) || changed;
      changed = redact_secret_values(item, keys) || changed;
      out[n] = std::move(item);
    }
    value = std::move(out);
  }
  return changed;
}

std::vector<std::string> secret_text_findings(const std::string& text,
                                              const std::vector<std::string>& keys) {
  std::vector<std::string> out;
  const std::string hay = text::ascii_lower(text);
  for (const auto& key : keys)
    if (counts(key) && hay.find(text::ascii_lower(key)) != std::string::npos)
      out.push_back("API key value");
  for (const auto& p : secret_patterns())
    if (re2::RE2::PartialMatch(text, p.re)) out.push_back(p.what);
  return out;
}

}  // namespace lb::net
