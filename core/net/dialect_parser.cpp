#include "core/net/dialect_parser.h"

#include <algorithm>
#include <limits>

#include "core/logprobs/raw_logprobs.h"
#include "core/logprobs/wire_logprobs.h"
#include "core/net/error_message.h"

namespace lb::net {

namespace {

std::string excerpt(std::string_view data) {
  std::string out(data.substr(0, 120));
  if (data.size() > 120) out += "...";
  return out;
}

// The message with its logprob values cut out, and where they were. One per thread, not per
// stream: an I/O thread serving hundreds of streams then writes to memory it has just used,
// rather than to each stream's own buffers, last touched an event ago and long out of cache.
struct CutScratch {
  std::string text;
  std::vector<logprobs::CutValue> values;
};

CutScratch& cut_scratch() {
  thread_local CutScratch scratch;
  return scratch;
}

}  // namespace

void DialectParser::on_message(std::string_view event_type, std::string_view data,
                               bool legacy_error, int64_t arrival_ns) {
  if (result_.error != ErrorKind::None) return;
  ++message_count_;
  const size_t b = data.find_first_not_of(" \t\r\n");
  const std::string_view trimmed =
      b == std::string_view::npos ? std::string_view() : data.substr(b);
  if (trimmed.rfind("[DONE]", 0) == 0) {
    terminal_ = true;
    return;
  }
  ++result_.total_events;
  // nlohmann's lexer rejects ill-formed UTF-8 inside strings, so invalid UTF-8 content surfaces
  // here as a Malformed error rather than being passed on (or silently replaced).
  // Logprob values are cut out here and kept as bytes (logprobs/raw_logprobs.h); the rest of the
  // message is parsed as before. The original bytes stay in `message_` for the cut values.
  message_ = data;
  CutScratch& scratch = cut_scratch();
  const bool cut = cuts_logprobs() && logprobs::cut_logprobs(data, scratch.text, scratch.values);
  if (!cut) scratch.values.clear();
  const std::string_view text = cut ? std::string_view(scratch.text) : data;
  nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (std::string quoted; j.is_discarded() && logprobs::quote_nonfinite_literals(text, quoted)) {
    // Python servers write NaN/-Infinity logprobs bare; quoted, they reach the logprob readers
    // as flagged values instead of failing the whole response.
    j = nlohmann::json::parse(quoted, nullptr, false);
  }
  if (j.is_discarded()) {
    if (legacy_error) return fail(ErrorKind::StreamError, "server error: " + excerpt(data));
    try {
      const auto unused = nlohmann::json::parse(data.begin(), data.end());
      (void)unused;
    } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for 1e999
      const std::string what = e.what();
      const bool utf8 = what.find("UTF-8") != std::string::npos;
      return fail(ErrorKind::Malformed, std::string(utf8 ? "invalid UTF-8" : "invalid JSON") +
                                            " in event " + std::to_string(message_count_) + ": " +
                                            what + "; data: " + excerpt(data));
    }
    return fail(ErrorKind::Malformed, "invalid JSON in event " + std::to_string(message_count_));
  }
  if (auto message = error_message_of(j)) return fail(ErrorKind::StreamError, *message);
  if (legacy_error || event_type == "error") {
    // The error object itself, not wrapped in {"error": ...}.
    auto message = error_message_of(nlohmann::json{{"error", j}});
    return fail(ErrorKind::StreamError, message ? *message : j.dump());
  }
  if (!j.is_object()) {
    return fail(ErrorKind::Malformed, "event " + std::to_string(message_count_) +
                                          " is not a JSON object: " + excerpt(data));
  }
  on_json(event_type, j, arrival_ns);
}

std::string_view DialectParser::cut_value(const nlohmann::json& placeholder,
                                          int32_t& entries) const {
  entries = -1;
  if (!placeholder.is_number_unsigned()) return {};
  const uint64_t k = placeholder.get<uint64_t>();
  const std::vector<logprobs::CutValue>& values = cut_scratch().values;
  if (k >= values.size()) return {};
  const logprobs::CutValue& c = values[k];
  entries = c.entries;
  return message_.substr(c.begin, c.end - c.begin);
}

void DialectParser::fail(ErrorKind kind, std::string message) {
  if (result_.error != ErrorKind::None) return;
  result_.error = kind;
  result_.error_message = std::move(message);
}

void DialectParser::add_event(int64_t arrival_ns, size_t content_bytes, size_t reasoning_bytes,
                              int32_t tokens, size_t tool_call_bytes) {
  if (content_bytes == 0 && reasoning_bytes == 0 && tool_call_bytes == 0) return;
  constexpr size_t kMax = std::numeric_limits<uint32_t>::max();
  EventArrival e;
  e.arrival_ns = arrival_ns;
  e.tokens = tokens;
  e.content_bytes = static_cast<uint32_t>(std::min(content_bytes, kMax));
  e.reasoning_bytes = static_cast<uint32_t>(std::min(reasoning_bytes, kMax));
  e.tool_call_bytes = static_cast<uint32_t>(std::min(tool_call_bytes, kMax));
  result_.events.push_back(e);
}

ToolCall& DialectParser::tool_call(int index) {
  for (auto& call : result_.tool_calls) {
    if (call.index == index) return call;
  }
  result_.tool_calls.push_back(ToolCall{index, {}, {}, {}});
  return result_.tool_calls.back();
}

int64_t DialectParser::read_openai_usage(const nlohmann::json& usage) {
  if (!usage.is_object()) return -1;
  Usage& u = result_.usage;
  if (const int64_t v = int_at(usage, "prompt_tokens"); v >= 0) u.prompt_tokens = v;
  if (const auto* details = find_key(usage, "prompt_tokens_details")) {
    if (const int64_t v = int_at(*details, "cached_tokens"); v >= 0) {
      u.cached_tokens = v;
      cached_from_usage_ = true;
    }
  }
  if (const auto* details = find_key(usage, "completion_tokens_details")) {
    if (const int64_t v = int_at(*details, "reasoning_tokens"); v >= 0) u.reasoning_tokens = v;
  }
  if (const int64_t v = int_at(usage, "reasoning_tokens"); v >= 0) u.reasoning_tokens = v;
  const int64_t completion = int_at(usage, "completion_tokens");
  if (completion < 0) return -1;
  u.completion_tokens = completion;
  const int64_t delta = completion - last_completion_tokens_;
  last_completion_tokens_ = completion;
  return delta;
}

}  // namespace lb::net
