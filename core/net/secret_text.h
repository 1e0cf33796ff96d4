#pragma once
// Keeping API keys out of text that gets written down: a server's error message can quote the
// key it refused ("Incorrect API key provided: sk-..."), and that message goes to requests.jsonl
// and the report. Exact key values are replaced wherever they occur (case-insensitively), and
// key-like tokens (sk-..., Bearer ..., api_key=...) by pattern, with "[redacted]".
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::net {

inline constexpr const char* kRedactedText = "[redacted]";

// Every case-insensitive occurrence of `term` replaced by "[redacted]"; `term` empty: unchanged.
std::string redact_literal(const std::string& text, const std::string& term);
// The keys' values (each of at least 4 characters) and key-like tokens replaced.
std::string redact_secret_text(std::string text, const std::vector<std::string>& keys);
// Every string in `value` (member names too) with each key's value (of at least 4 characters)
// replaced, as in redact_literal; returns whether anything was. Only the exact values: what a
// model answered must stay as it was, even where it looks like a key.
bool redact_secret_values(nlohmann::json& value, const std::vector<std::string>& keys);
// One line per kind of secret still in `text` ("API key value", "bearer token", ...).
std::vector<std::string> secret_text_findings(const std::string& text,
                                              const std::vector<std::string>& keys);

}  // namespace lb::net
