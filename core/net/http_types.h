#pragma once
// Value types that describe one HTTP request to a serving endpoint and the timing-stamped result
// the I/O thread hands back. Every *_ns is std::chrono::steady_clock time since its epoch,
// taken when the bytes arrived (never after parsing, never on the GUI thread).
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/logprobs/raw_logprobs.h"
#include "core/logprobs/token_logprobs.h"

namespace lb::net {

// The shape of the events a response carries. Server flavours (vLLM, SGLang, llama.cpp, TGI's
// OpenAI route, Ollama /v1) are all OpenAiChat/OpenAiCompletions with optional extensions.
enum class Dialect {
  OpenAiChat,         // /v1/chat/completions (SSE when streamed)
  OpenAiCompletions,  // /v1/completions
  OpenAiResponses,    // /v1/responses (event: + data:, no [DONE])
  TgiGenerate,        // TGI native /generate_stream
  OllamaChat,         // Ollama native /api/chat (NDJSON)
  PlainJson,          // any other endpoint: body collected, not parsed as a stream
  PlainText,          // /metrics, /health, /version
};

enum class HttpVersion { Http1_1, Http2, Auto };

struct Timeouts {
  int64_t connect_ms = 10'000;
  int64_t first_byte_ms = 600'000;  // prefill of a 241K-token prompt can take minutes
  int64_t idle_ms = 120'000;        // longest gap between two reads once bytes have arrived
  int64_t total_ms = 0;             // 0 = no total limit
};

struct TlsOptions {
  bool verify = true;          // false only by the explicit "insecure" switch, labelled in outputs
  std::string ca_bundle_path;  // per-lane CA bundle; empty = system store
};

struct HttpRequest {
  std::string url;
  std::string method = "POST";  // "GET" for probes and /metrics
  // Header lines as name/value. API keys are put here in memory only, never logged or written.
  std::vector<std::pair<std::string, std::string>> headers;
  // Shared so that a ~1 MB context-sweep prompt is not copied per request.
  std::shared_ptr<const std::string> body;
  Dialect dialect = Dialect::OpenAiChat;
  // false: the body is one JSON response, parsed in `dialect` as a single output event that
  // arrives with its last byte (no TTFT/ITL meaning). PlainJson/PlainText ignore this.
  bool stream = true;
  Timeouts timeouts;
  // A streamed response longer than this ends the request with ErrorKind::TooLarge: a server
  // that never stops streaming (max_tokens ignored) must not fill the client's memory. 0 = none.
  int64_t max_stream_bytes = 64ll << 20;
  // A streamed response that carries more tokens than this (each content or reasoning event
  // counts its tokens when the server says, else one) ends with ErrorKind::TooLarge. Set from the
  // request's max_tokens (stream_token_cap); 0 = none.
  int64_t max_stream_tokens = 0;
  TlsOptions tls;
  HttpVersion http_version = HttpVersion::Auto;
};

// One event (SSE `data:` message or NDJSON line) that carried content or reasoning. Chunks with
// only a role, usage or tool-call fragments are not listed (tool calls are in tool_calls).
struct EventArrival {
  int64_t arrival_ns = 0;        // steady_clock when the bytes completing the event arrived
  int32_t tokens = -1;           // tokens this event carried when the server said (-1 unknown)
  uint32_t content_bytes = 0;    // UTF-8 bytes of content in this event
  uint32_t reasoning_bytes = 0;  // UTF-8 bytes of reasoning in this event
  uint32_t tool_call_bytes = 0;  // bytes of tool-call names and arguments in this event
};

struct ToolCall {
  int index = 0;
  std::string id;
  std::string name;
  std::string arguments;  // assembled from the argument fragments
};

struct Usage {
  int64_t prompt_tokens = -1;  // -1 = not reported
  int64_t completion_tokens = -1;
  int64_t cached_tokens = -1;  // prompt_tokens_details.cached_tokens / llama.cpp cache_n
  int64_t reasoning_tokens = -1;
};

// vLLM's final-chunk metrics.speculative_decoding, when present.
struct SpecDecodeUsage {
  int64_t num_drafts = -1;
  int64_t num_draft_tokens = -1;
  int64_t num_accepted_tokens = -1;
  std::vector<int64_t> accepted_per_position;
};

enum class ErrorKind {
  None,
  Connect,      // could not connect / DNS / TLS handshake
  Tls,          // certificate verification failed
  HttpStatus,   // 4xx/5xx before the stream
  RateLimited,  // 429 (retry_after_s set when the server said)
  StreamError,  // an error object inside the stream
  // Invalid JSON / framing in the stream. Invalid UTF-8 is refused, not replaced (the message
  // starts "invalid UTF-8"), so outputs are never silently altered.
  Malformed,
  Truncated,  // connection closed before the stream ended
  FirstByteTimeout,
  IdleTimeout,
  TotalTimeout,
  TooLarge,  // an event larger than the client's limit
  Cancelled,
  // The response arrived but processing it in the client threw (a bug, or a response no code
  // path expected); the record keeps the exception's text instead of vanishing.
  ClientError,
  // The client did not send the request: it broke a limit of the lane's (e.g. its media are
  // larger than the lane's max_media_bytes). Nothing reached the server.
  Refused,
};

const char* to_string(ErrorKind kind);

struct StreamResult {
  uint64_t id = 0;
  int http_status = 0;
  ErrorKind error = ErrorKind::None;
  std::string error_message;  // human-readable; for HTTP errors the server's own message
  double retry_after_s = -1;  // from Retry-After / retry-after-ms on 429 and 503

  int64_t t_submit_ns = 0;  // handed to the I/O thread's multi handle
  // First request byte handed to the socket: stamped in curl's pre-request callback, on the I/O
  // thread, immediately before the request is written to a ready connection (new or reused).
  // Connect/TLS time and waiting for a free connection are therefore not in TTFT.
  int64_t t_sent_ns = 0;
  int64_t t_first_byte_ns = 0;  // first response body byte
  int64_t t_done_ns = 0;        // transfer finished (success or error)

  // Events that carried output: content, reasoning or tool-call fragments (role-only and
  // usage-only chunks excluded).
  std::vector<EventArrival> events;
  int64_t total_events = 0;  // every event seen, including role-only and usage-only ones

  std::string content;
  std::string reasoning;
  std::vector<ToolCall> tool_calls;
  std::string finish_reason;
  Usage usage;
  SpecDecodeUsage spec;
  nlohmann::json server_timings;  // llama.cpp `timings`, Ollama durations (ns), when present
  std::string model;              // the model the server said it used
  // Per-token logprobs of the content, when the server sent any (the request asked for them).
  // The OpenAI dialects keep them as bytes while the response streams (logprobs/raw_logprobs.h):
  // `logprobs` is whole only after resolve_logprobs(), which readers call off the I/O thread
  // (StreamClient::fetch does).
  logprobs::TokenSeries logprobs;
  bool logprobs_seen = false;          // some event carried a logprobs field
  logprobs::RawLogprobs logprobs_raw;  // not yet read; empty after resolve_logprobs()
  std::string logprobs_error;          // logprobs that could not be read, when some could not

  std::string body;  // whole body for PlainJson/PlainText and for HTTP error responses
  std::vector<std::pair<std::string, std::string>> response_headers;
  std::string http_version_used;  // "1.1" or "2"
};

}  // namespace lb::net
