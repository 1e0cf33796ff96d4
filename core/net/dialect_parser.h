#pragma once
// A DialectParser reads the framed messages of one response (SSE events or NDJSON lines) in a
// server's dialect and fills the StreamResult: content, reasoning and tool calls kept apart,
// one EventArrival per event that carried generated output, usage, server timings, errors.
// Each message is parsed once, on the I/O thread, after its arrival time was stamped.
#include <cmath>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/logprobs/raw_logprobs.h"
#include "core/net/http_types.h"

namespace lb::net {

class DialectParser {
 public:
  explicit DialectParser(StreamResult& result) : result_(result) {}
  virtual ~DialectParser() = default;
  DialectParser(const DialectParser&) = delete;
  DialectParser& operator=(const DialectParser&) = delete;

  // One framed message; `event_type` is the SSE `event:` name ("" for NDJSON or unnamed).
  // `legacy_error` marks old llama.cpp's non-standard `error:` field. Ignored after an error.
  void on_message(std::string_view event_type, std::string_view data, bool legacy_error,
                  int64_t arrival_ns);

  // The stream said it is complete ([DONE], response.completed, done:true, TGI's final event).
  bool terminal() const { return terminal_; }

 protected:
  // Called with the parsed JSON of every message that is not [DONE] and not an error.
  virtual void on_json(std::string_view event_type, const nlohmann::json& j,
                       int64_t arrival_ns) = 0;

  // Whether on_message cuts "logprobs" values out before parsing (the OpenAI dialects): such a
  // value then reaches on_json as the integer k, and cut_value(k) gives its bytes.
  virtual bool cuts_logprobs() const { return false; }
  std::string_view cut_value(const nlohmann::json& placeholder, int32_t& entries) const;

  void fail(ErrorKind kind, std::string message);
  // Records an output event when it carried content or reasoning (docs/metrics.md's events; a chunk
  // with only role, usage or tool-call fragments is not one); tokens -1 = unknown.
  void add_event(int64_t arrival_ns, size_t content_bytes, size_t reasoning_bytes, int32_t tokens,
                 size_t tool_call_bytes = 0);
  ToolCall& tool_call(int index);
  // Usage object in the OpenAI shape (prompt/completion tokens, cached and reasoning details).
  // Returns the completion_tokens increase since the previous usage object, or -1.
  int64_t read_openai_usage(const nlohmann::json& usage);

  StreamResult& result_;
  bool terminal_ = false;
  int64_t last_completion_tokens_ = 0;
  bool cached_from_usage_ = false;  // usage's cached_tokens outranks llama.cpp's cache_n
  int64_t message_count_ = 0;

 private:
  std::string_view message_;  // the message being parsed, as it arrived
};

// A parser for the dialect; nullptr for PlainJson/PlainText (bodies are collected, not parsed).
std::unique_ptr<DialectParser> make_dialect_parser(Dialect dialect, StreamResult& result);

// Helpers shared by the dialects.
inline const nlohmann::json* find_key(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(key);
  return (it == j.end() || it->is_null()) ? nullptr : &*it;
}
inline std::string_view string_at(const nlohmann::json& j, const char* key) {
  const nlohmann::json* v = find_key(j, key);
  return (v && v->is_string()) ? std::string_view(v->get_ref<const std::string&>())
                               : std::string_view();
}
// A count a server sent: an integer as it is, a float cut to its whole part when it fits in
// int64_t, anything else (a string, 1e300, an unsigned beyond int64_t) the fallback. Converting
// an out-of-range float to an integer is undefined behaviour, and the wire is untrusted.
inline int64_t to_int64(const nlohmann::json& v, int64_t fallback) {
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    return u <= static_cast<uint64_t>(INT64_MAX) ? static_cast<int64_t>(u) : fallback;
  }
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    // 2^63 is exact as a double; the open bound keeps the cast in range.
    if (std::isfinite(d) && d > -9223372036854775808.0 && d < 9223372036854775808.0)
      return static_cast<int64_t>(d);
  }
  return fallback;
}
inline int64_t int_at(const nlohmann::json& j, const char* key, int64_t fallback = -1) {
  const nlohmann::json* v = find_key(j, key);
  return v ? to_int64(*v, fallback) : fallback;
}

}  // namespace lb::net
