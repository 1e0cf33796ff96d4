#include "core/net/stream_parser.h"

#include "core/net/ollama_chat_parser.h"
#include "core/net/openai_parser.h"
#include "core/net/responses_parser.h"
#include "core/net/tgi_generate_parser.h"

namespace lb::net {

std::unique_ptr<DialectParser> make_dialect_parser(Dialect dialect, StreamResult& result) {
  switch (dialect) {
    case Dialect::OpenAiChat:
      return std::make_unique<OpenAiParser>(result, false);
    case Dialect::OpenAiCompletions:
      return std::make_unique<OpenAiParser>(result, true);
    case Dialect::OpenAiResponses:
      return std::make_unique<ResponsesParser>(result);
    case Dialect::TgiGenerate:
      return std::make_unique<TgiGenerateParser>(result);
    case Dialect::OllamaChat:
      return std::make_unique<OllamaChatParser>(result);
    case Dialect::PlainJson:
    case Dialect::PlainText:
      return nullptr;
  }
  return nullptr;
}

StreamParser::StreamParser(Dialect dialect, size_t max_event_bytes, StreamResult& result)
    : result_(result), dialect_(make_dialect_parser(dialect, result)) {
  if (!dialect_) return;
  if (dialect == Dialect::OllamaChat) {
    ndjson_ = std::make_unique<NdjsonFramer>(max_event_bytes, [this](std::string_view line) {
      dialect_->on_message({}, line, false, arrival_ns_);
    });
  } else {
    sse_ = std::make_unique<SseFramer>(max_event_bytes, [this](const SseEvent& e) {
      dialect_->on_message(e.type, e.data, e.legacy_error, arrival_ns_);
    });
  }
}

StreamParser::~StreamParser() = default;

bool StreamParser::feed(std::string_view bytes, int64_t arrival_ns) {
  arrival_ns_ = arrival_ns;
  const bool ok = sse_ ? sse_->feed(bytes) : ndjson_ ? ndjson_->feed(bytes) : true;
  if (!ok && result_.error == ErrorKind::None) {
    result_.error = ErrorKind::TooLarge;
    result_.error_message = sse_ ? sse_->error() : ndjson_->error();
  }
  if (!ok) return false;
  return result_.error != ErrorKind::Malformed;
}

void StreamParser::finish(int64_t arrival_ns) {
  arrival_ns_ = arrival_ns;
  const size_t pending = pending_bytes();
  const bool clean_before = result_.error == ErrorKind::None;
  if (sse_) sse_->finish();
  if (ndjson_) ndjson_->finish();
  // An unterminated last event that does not parse means the body was cut (a close-delimited
  // body cannot say so otherwise); a complete one is accepted, as some servers close early.
  if (pending > 0 && clean_before && result_.error == ErrorKind::Malformed) {
    result_.error = ErrorKind::Truncated;
    result_.error_message = "stream ended inside an event (" + std::to_string(pending) +
                            " bytes without a terminator): " + result_.error_message;
  }
}

void StreamParser::parse_document(std::string_view body, int64_t arrival_ns) {
  if (!dialect_) return;
  const size_t before = result_.events.size();
  dialect_->on_message({}, body, false, arrival_ns);
  // A whole document is one event with every token in it: how many tokens an event carries
  // (the speculative-decoding signature) means nothing there, so it is not told; a count the
  // document gave only there (TGI's details) becomes the answer's usage.
  int64_t tokens = 0;
  bool counted = false;
  for (size_t i = before; i < result_.events.size(); ++i) {
    if (result_.events[i].tokens >= 0) {
      tokens += result_.events[i].tokens;
      counted = true;
    }
    result_.events[i].tokens = -1;
  }
  if (counted && result_.usage.completion_tokens < 0) result_.usage.completion_tokens = tokens;
}

bool StreamParser::terminal() const { return dialect_ && dialect_->terminal(); }

size_t StreamParser::pending_bytes() const {
  return sse_ ? sse_->pending_bytes() : ndjson_ ? ndjson_->pending_bytes() : 0;
}

void resolve_logprobs(StreamResult& result) {
  if (result.logprobs_raw.empty()) return;
  logprobs::append_raw(result.logprobs_raw, result.logprobs, result.logprobs_error);
  result.logprobs_raw = {};
}

logprobs::TokenSeries resolved_logprobs(const StreamResult& result, std::string* error) {
  logprobs::TokenSeries series = result.logprobs;
  std::string message = result.logprobs_error;
  if (!result.logprobs_raw.empty()) logprobs::append_raw(result.logprobs_raw, series, message);
  if (error) *error = std::move(message);
  return series;
}

}  // namespace lb::net
