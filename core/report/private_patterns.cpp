#include "core/report/private_patterns.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <utility>

#include "core/report/gate_table.h"

namespace lb::report {
namespace {

using re2::RE2;
using Span = std::pair<size_t, size_t>;  // [begin, end) in the text

RE2::Options bytes() {
  RE2::Options o;
  o.set_log_errors(false);
  o.set_encoding(RE2::Options::EncodingLatin1);
  return o;
}

struct Pattern {
  const char* what;
  const RE2& re;
};

// Replaced as a whole, in this order, before the IPv6 addresses and host names.
const std::vector<Pattern>& plain_patterns() {
  static const RE2 url(R"(\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s"'<>]+)", bytes());
  static const RE2 email(R"([A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+)", bytes());
  static const RE2 ipv4(R"(\b(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}\b)",
                        bytes());
  static const std::vector<Pattern> p = {
      {"URL", url}, {"e-mail address", email}, {"IPv4 address", ipv4}};
  return p;
}

// Replaced last; its leading delimiter is kept.
const RE2& path_pattern() {
  static const RE2 path(
      R"((^|[\s"'(=:,])(~/[^\s"'<>]*|/[A-Za-z0-9._\-]+(/[A-Za-z0-9._\-]*)+|[A-Za-z]:\\[^\s"'<>]*))",
      bytes());
  return path;
}

// RE2 has no lookahead. The two patterns that need one match a candidate here, and a check on
// it gives the span a backtracking engine would have matched at that start, or none (the search
// then goes on one byte later). `groups` is what the check reads: [0] the whole candidate.
struct Lookahead {
  const char* what;
  const RE2& candidate;
  std::optional<Span> (*check)(std::string_view text, const re2::StringPiece* groups);
};

Span span_of(std::string_view text, re2::StringPiece piece) {
  const auto begin = static_cast<size_t>(piece.data() - text.data());
  return {begin, begin + piece.size()};
}

bool is_address_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == ':';
}

// IPv6: "::" forms, or at least five hex groups (clock times, 12:30:45, have three); a bare
// "h::" only before a delimiter or the end. Groups: [1] the delimiter before, kept; [2] the
// address.
std::optional<Span> ipv6_check(std::string_view text, const re2::StringPiece* groups) {
  const Span address = span_of(text, groups[2]);
  const bool bare = groups[2].ends_with(":");
  if (bare && address.second < text.size() && is_address_char(text[address.second]))
    return std::nullopt;
  return address;
}

bool is_alpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

bool is_file_extension(std::string_view label) {
  static constexpr std::array<std::string_view, 18> kExtensions = {
      "json", "jsonl", "txt", "md",          "html", "csv",  "svg", "pdf",  "py",
      "bin",  "pt",    "pth", "safetensors", "gguf", "yaml", "yml", "prom", "sh"};
  return std::find(kExtensions.begin(), kExtensions.end(), label) != kExtensions.end();
}

bool is_word(char c) { return is_alpha(c) || (c >= '0' && c <= '9') || c == '_'; }

// The gate table's row keys ("gates.streaming", "gates.tools") look like host names but name a
// check of the product; one more label ("gates.tools.example.com") makes one a host again.
bool is_gate_key_at(std::string_view text, size_t begin) {
  constexpr std::string_view kPrefix = "gates.";
  if (text.substr(begin, kPrefix.size()) != kPrefix) return false;
  for (const std::string& check : gate_check_names()) {
    if (!std::all_of(check.begin(), check.end(), [](char c) { return is_word(c); })) continue;
    const size_t end = begin + kPrefix.size() + check.size();
    if (text.substr(begin + kPrefix.size(), check.size()) != check) continue;
    if (end < text.size() && is_word(text[end])) continue;
    size_t next = end;
    if (next < text.size() && (text[next] == '.' || text[next] == '-')) ++next;
    if (next < text.size() && is_word(text[next]) && text[next] != '_') continue;
    return true;
  }
  return false;
}

// Host names: labels with a dot each, then an alphabetic top-level label that is not a file
// extension ("report.json" is a file). A candidate is shortened to the last label that can end
// a host name: its letters, followed by the label's end or a hyphen (a word boundary).
std::optional<Span> host_check(std::string_view text, const re2::StringPiece* groups) {
  const auto [begin, end] = span_of(text, groups[0]);
  if (is_gate_key_at(text, begin)) return std::nullopt;
  std::vector<size_t> starts{begin};  // where each label starts
  for (size_t i = begin; i < end; ++i)
    if (text[i] == '.') starts.push_back(i + 1);
  for (size_t k = starts.size() - 1; k >= 1; --k) {
    size_t stop = starts[k];
    while (stop < end && is_alpha(text[stop])) ++stop;
    const size_t label_end = k + 1 < starts.size() ? starts[k + 1] - 1 : end;
    const bool bounded = stop == label_end || text[stop] == '-';
    const std::string_view top = text.substr(starts[k], stop - starts[k]);
    if (bounded && top.size() >= 2 && top.size() <= 24 && !is_file_extension(top))
      return Span{begin, stop};
  }
  return std::nullopt;
}

const std::vector<Lookahead>& lookahead_patterns() {
  static const RE2 ipv6(
      R"((^|[^0-9A-Za-z:])([0-9A-Fa-f]{0,4}::[0-9A-Fa-f:]*[0-9A-Fa-f]|[0-9A-Fa-f]{0,4}::|([0-9A-Fa-f]{1,4}:){4,7}[0-9A-Fa-f]{1,4}))",
      bytes());
  static const RE2 host(
      R"(\b(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}\b)", bytes());
  static const std::vector<Lookahead> p = {{"IPv6 address", ipv6, ipv6_check},
                                           {"host name", host, host_check}};
  return p;
}

// Calls found(span) for each match of `p`, left to right; stops when found returns false.
template <typename Found>
void each_match(const std::string& text, const Lookahead& p, Found found) {
  re2::StringPiece groups[3];
  const int count = std::min(3, p.candidate.NumberOfCapturingGroups() + 1);
  size_t pos = 0;
  while (pos <= text.size() &&
         p.candidate.Match(text, pos, text.size(), RE2::UNANCHORED, groups, count)) {
    const Span candidate = span_of(text, groups[0]);
    const std::optional<Span> span = p.check(text, groups);
    if (!span) {
      pos = candidate.first + 1;
      continue;
    }
    if (!found(*span)) return;
    pos = span->second;
  }
}

std::string redact_matches(const std::string& text, const Lookahead& p) {
  std::string out;
  size_t copied = 0;
  each_match(text, p, [&](Span span) {
    out.append(text, copied, span.first - copied).append("[redacted]");
    copied = span.second;
    return true;
  });
  return out.append(text, copied, std::string::npos);
}

}  // namespace

std::string redact_private_patterns(std::string text) {
  for (const auto& p : plain_patterns()) RE2::GlobalReplace(&text, p.re, "[redacted]");
  for (const auto& p : lookahead_patterns()) text = redact_matches(text, p);
  RE2::GlobalReplace(&text, path_pattern(), "\\1[redacted]");
  return text;
}

std::vector<std::string> private_pattern_findings(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& p : plain_patterns())
    if (RE2::PartialMatch(text, p.re)) out.push_back(p.what);
  for (const auto& p : lookahead_patterns()) {
    bool found = false;
    each_match(text, p, [&](Span) { return !(found = true); });
    if (found) out.push_back(p.what);
  }
  if (RE2::PartialMatch(text, path_pattern())) out.push_back("filesystem path");
  return out;
}

}  // namespace lb::report
