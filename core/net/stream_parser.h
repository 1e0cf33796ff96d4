#pragma once
// StreamParser = framing (SSE, or NDJSON for Ollama's native API) + the dialect's parser, fed the
// raw body bytes of one response as they arrive. Used by StreamClient's write callback and
// usable on its own (tests, replaying captured streams).
#include <cstdint>
#include <memory>
#include <string_view>

#include "core/net/dialect_parser.h"
#include "core/net/http_types.h"
#include "core/net/ndjson_framer.h"
#include "core/net/sse_framer.h"

namespace lb::net {

class StreamParser {
 public:
  // `result` must outlive the parser; it receives content, events, usage and errors.
  StreamParser(Dialect dialect, size_t max_event_bytes, StreamResult& result);
  ~StreamParser();

  // Bytes of one read, stamped with the time they arrived. Returns false when reading should
  // stop: an event was too large or not valid JSON/UTF-8 (result.error says which). A
  // StreamError keeps returning true so the rest of the body can drain and the connection is
  // reused; later events are ignored.
  bool feed(std::string_view bytes, int64_t arrival_ns);
  // The body ended. Dispatches a final event that lacked its terminator.
  void finish(int64_t arrival_ns);

  // A non-streamed response (request.stream == false): the whole body is one message, parsed in
  // the same dialect and recorded as a single output event at `arrival_ns`.
  void parse_document(std::string_view body, int64_t arrival_ns);

  bool terminal() const;  // the stream said it was complete
  // Bytes of an unfinished event held when the body ended (for truncation messages).
  size_t pending_bytes() const;

 private:
  StreamResult& result_;
  std::unique_ptr<DialectParser> dialect_;
  std::unique_ptr<SseFramer> sse_;
  std::unique_ptr<NdjsonFramer> ndjson_;
  int64_t arrival_ns_ = 0;
};

// Reads the logprobs kept as bytes (StreamResult::logprobs_raw) into result.logprobs, after any
// already read; sets logprobs_error when some could not be read. Cheap when there are none; call
// it where the result is used, off the client's I/O thread. Idempotent.
void resolve_logprobs(StreamResult& result);
// The same, for a result that cannot be changed: the whole series, and the error if any.
logprobs::TokenSeries resolved_logprobs(const StreamResult& result, std::string* error = nullptr);

}  // namespace lb::net
