#include "core/logprobs/raw_logprobs.h"

#include <algorithm>
#include <cstring>

#include <nlohmann/json.hpp>

#include "core/logprobs/json_skip.h"
#include "core/logprobs/wire_logprobs.h"

namespace lb::logprobs {
namespace {

constexpr size_t kNone = std::string_view::npos;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

size_t skip_space(std::string_view d, size_t i) {
  while (i < d.size() && is_space(d[i])) ++i;
  return i;
}

// `i` is at an opening quote; returns the offset of the closing quote, or kNone.
size_t string_end(std::string_view d, size_t i) {
  for (++i; i < d.size(); ++i) {
    const void* q = std::memchr(d.data() + i, '"', d.size() - i);
    if (!q) return kNone;
    size_t end = static_cast<size_t>(static_cast<const char*>(q) - d.data());
    size_t backslashes = 0;
    while (end - backslashes > i && d[end - backslashes - 1] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return end;
    i = end;  // an escaped quote: look on after it
  }
  return kNone;
}

// A string at [open, close] followed by ':' is a member name; returns where its value starts.
size_t member_value(std::string_view d, size_t close) {
  const size_t colon = skip_space(d, close + 1);
  if (colon >= d.size() || d[colon] != ':') return kNone;
  return skip_space(d, colon + 1);
}

bool names(std::string_view d, size_t open, size_t close, std::string_view name) {
  return d.substr(open + 1, close - open - 1) == name;
}

// The offset of the next `"logprobs"` at or after `from`, or kNone. Looked for by its letters: a
// quote comes every few bytes in JSON, an 'l' seldom.
size_t find_name(std::string_view m, size_t from) {
  constexpr std::string_view kTail = "logprobs\"";
  for (size_t p = m.find(kTail, from + 1); p != kNone; p = m.find(kTail, p + 1)) {
    if (m[p - 1] == '"') return p - 1;
  }
  return kNone;
}

// `v` is at the '[' of a "content"/"tokens" member; returns one past its ']' (kNone when it is
// left open) and counts its elements. Elements that are objects or arrays are skipped whole.
size_t counted_array_end(std::string_view d, size_t v, int32_t& entries) {
  int32_t commas = 0;
  bool any = false;
  for (size_t i = v + 1; i < d.size();) {
    const char c = d[i];
    if (c == '"') {
      const size_t close = string_end(d, i);
      if (close == kNone) return kNone;
      any = true;
      i = close + 1;
    } else if (c == '{' || c == '[') {
      any = true;
      i = skip_container(d, i);
      if (i == kNone) return kNone;
    } else if (c == '}' || c == ']') {
      entries = any ? commas + 1 : 0;
      return i + 1;
    } else {
      if (c == ',') {
        ++commas;
      } else if (!is_space(c)) {
        any = true;
      }
      ++i;
    }
  }
  return kNone;
}

// `i` is at '{' or '['; returns one past the matching bracket (kNone when it is left open) and
// counts the elements of a "content"/"tokens" array member of an object. Everything nested
// deeper is skipped whole (json_skip.h): that is most of the value's bytes.
size_t container_end(std::string_view d, size_t i, int32_t& entries) {
  if (d[i] != '{') return skip_container(d, i);
  for (++i; i < d.size();) {
    const char c = d[i];
    if (c == '"') {
      const size_t close = string_end(d, i);
      if (close == kNone) return kNone;
      const size_t v = names(d, i, close, "content") || names(d, i, close, "tokens")
                           ? member_value(d, close)
                           : kNone;
      if (v != kNone && v < d.size() && d[v] == '[') {
        i = counted_array_end(d, v, entries);
        if (i == kNone) return kNone;
      } else {
        i = close + 1;
      }
    } else if (c == '{' || c == '[') {
      i = skip_container(d, i);
      if (i == kNone) return kNone;
    } else if (c == '}' || c == ']') {
      return i + 1;
    } else {
      ++i;
    }
  }
  return kNone;
}

}  // namespace

bool cut_logprobs(std::string_view message, std::string& out, std::vector<CutValue>& cuts) {
  out.clear();
  cuts.clear();
  size_t next = find_name(message, 0);  // the next candidate member name
  if (next == kNone) return false;
  size_t i = 0;  // always outside any string
  while (i < message.size()) {
    if (next != kNone && next < i) next = find_name(message, i);
    if (next == kNone) break;
    // Outside a string, an unescaped "logprobs" can only open a string: jump to it instead of
    // walking every string before it. One preceded by a backslash may sit inside a string, so
    // the walk goes on from `i` string by string until it is past it.
    if (next > 0 && message[next - 1] != '\\') i = next;
    const void* q = std::memchr(message.data() + i, '"', message.size() - i);
    if (!q) break;
    const size_t open = static_cast<size_t>(static_cast<const char*>(q) - message.data());
    const size_t close = string_end(message, open);
    if (close == kNone) break;
    i = close + 1;
    if (!names(message, open, close, "logprobs")) continue;
    const size_t v = member_value(message, close);
    if (v == kNone || v >= message.size() || (message[v] != '{' && message[v] != '[')) continue;
    CutValue cut;
    cut.begin = v;
    cut.end = container_end(message, v, cut.entries);
    if (cut.end == kNone) {
      cuts.clear();
      return false;
    }
    cuts.push_back(cut);
    i = cut.end;
  }
  if (cuts.empty()) return false;
  out.reserve(message.size());
  size_t from = 0;
  for (size_t k = 0; k < cuts.size(); ++k) {
    out.append(message.substr(from, cuts[k].begin - from));
    out += std::to_string(k);
    from = cuts[k].end;
  }
  out.append(message.substr(from));
  return true;
}

void append_raw(const RawLogprobs& raw, TokenSeries& out, std::string& error) {
  size_t k = 0;
  raw.visit([&](std::string_view value, RawShape shape) {
    ++k;
    nlohmann::json j = nlohmann::json::parse(value.begin(), value.end(), nullptr, false);
    if (std::string quoted; j.is_discarded() && quote_nonfinite_literals(value, quoted))
      j = nlohmann::json::parse(quoted, nullptr, false);
    if (j.is_discarded()) {
      if (error.empty())
        error = "the logprobs of output event " + std::to_string(k) +
                " are not valid JSON (or not valid UTF-8)";
      return;
    }
    if (shape == RawShape::OpenAiCompletions) {
      append_openai_completions(j, out);
    } else {
      append_openai_chat(j, out);
    }
  });
}

}  // namespace lb::logprobs
