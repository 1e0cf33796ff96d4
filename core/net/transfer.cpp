#include "core/net/transfer.h"

#include <strings.h>

#include <algorithm>
#include <chrono>

#include "core/net/data_url.h"
#include "core/net/error_message.h"
#include "core/net/retry_after.h"

namespace lb::net {

namespace {

constexpr size_t kMaxErrorBodyBytes = 1 << 20;
constexpr size_t kMaxPlainBodyBytes = 256u << 20;

bool is_streaming(Dialect d) { return d != Dialect::PlainJson && d != Dialect::PlainText; }

std::string format_ms(int64_t ms) { return std::to_string(ms) + " ms"; }

bool prior_knowledge_reuse_works() {
  static const bool works = curl_version_info(CURLVERSION_NOW)->version_num >= 0x080000;
  return works;
}

}  // namespace

Transfer::Transfer(uint64_t id, HttpRequest request, StreamClient::Completion done,
                   StreamClient::EventObserver observer, const ClientOptions& options)
    : request_(std::move(request)),
      done_(std::move(done)),
      observer_(std::move(observer)),
      max_event_bytes_(options.max_event_bytes),
      receive_buffer_bytes_(options.receive_buffer_bytes) {
  result_.id = id;
}

Transfer::~Transfer() {
  if (easy_) curl_easy_cleanup(easy_);
  if (headers_) curl_slist_free_all(headers_);
}

bool Transfer::configure() {
  easy_ = curl_easy_init();
  if (!easy_) {
    result_.error = ErrorKind::Connect;
    result_.error_message = "could not create a transfer handle";
    return false;
  }
  CURL* e = easy_;
  curl_easy_setopt(e, CURLOPT_PRIVATE, this);
  curl_easy_setopt(e, CURLOPT_URL, request_.url.c_str());
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, error_buffer_);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &Transfer::on_write);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, this);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &Transfer::on_header);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, this);
  // t_sent: curl calls the pre-request callback once the connection is ready (new or reused),
  // immediately before it writes the request to the socket, on this same thread. Stamping here
  // excludes connect/TLS time and any wait for a free connection, and is never later than the
  // server's receipt (a stamp after send() returns can be, by a few microseconds).
  curl_easy_setopt(e, CURLOPT_PREREQFUNCTION, &Transfer::on_prereq);
  curl_easy_setopt(e, CURLOPT_PREREQDATA, this);
  curl_easy_setopt(e, CURLOPT_BUFFERSIZE, static_cast<long>(receive_buffer_bytes_));
  curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  // URLs come from plans, probes and servers: only http and https, never gopher://, dict://,
  // file:// and the rest of what libcurl speaks (docs/security.md).
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  const Timeouts& t = request_.timeouts;
  if (t.connect_ms > 0) {
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(t.connect_ms));
  }
  if (t.total_ms > 0) curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(t.total_ms));
  configure_protocol();
  configure_request();
  if (is_streaming(request_.dialect)) {
    parser_ = std::make_unique<StreamParser>(request_.dialect, max_event_bytes_, result_);
  }
  return true;
}

void Transfer::configure_protocol() {
  CURL* e = easy_;
  const bool plain_http = strncasecmp(request_.url.c_str(), "http://", 7) == 0;
  switch (request_.http_version) {
    case HttpVersion::Http1_1:
      curl_easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
      break;
    case HttpVersion::Http2:
      curl_easy_setopt(e, CURLOPT_HTTP_VERSION,
                       static_cast<long>(plain_http ? CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE
                                                    : CURL_HTTP_VERSION_2_0));
      if (plain_http && !prior_knowledge_reuse_works()) {
        // libcurl before 8.0 breaks a reused prior-knowledge connection ("Error in the HTTP2
        // framing layer", curl issue 10634): give each such request its own connection.
        curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, 1L);
        curl_easy_setopt(e, CURLOPT_FORBID_REUSE, 1L);
      } else {
        curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);  // multiplex on one connection
      }
      break;
    case HttpVersion::Auto:
      if (plain_http) {
        // Without TLS there is no ALPN, so Auto means HTTP/1.1. PIPEWAIT here would hold a new
        // request back until a busy connection's response arrives, shifting open-loop send times.
        curl_easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
      } else {
        curl_easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
        curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);  // ALPN answers during the TLS handshake
      }
      break;
  }
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, request_.tls.verify ? 1L : 0L);
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, request_.tls.verify ? 2L : 0L);
  if (!request_.tls.ca_bundle_path.empty()) {
    curl_easy_setopt(e, CURLOPT_CAINFO, request_.tls.ca_bundle_path.c_str());
  }
}

void Transfer::configure_request() {
  CURL* e = easy_;
  bool has_content_type = false;
  for (const auto& [name, value] : request_.headers) {
    has_content_type = has_content_type || strcasecmp(name.c_str(), "content-type") == 0;
    headers_ = curl_slist_append(headers_, (name + ": " + value).c_str());
  }
  // No "Expect: 100-continue" round trip before large prompts: it would delay t_sent's meaning.
  headers_ = curl_slist_append(headers_, "Expect:");
  if (request_.body && !has_content_type) {
    headers_ = curl_slist_append(headers_, "Content-Type: application/json");
  }
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers_);
  if (request_.method == "GET") {
    curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
    return;
  }
  if (request_.method != "POST") {
    curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, request_.method.c_str());
  }
  // Points into the shared body, which this transfer keeps alive: no copy per request.
  static const std::string kEmpty;
  const std::string& body = request_.body ? *request_.body : kEmpty;
  curl_easy_setopt(e, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
}

int64_t Transfer::deadline_ns() const {
  const Timeouts& t = request_.timeouts;
  if (!body_started()) {
    return t.first_byte_ms > 0 ? result_.t_submit_ns + t.first_byte_ms * 1'000'000 : 0;
  }
  return t.idle_ms > 0 ? last_read_ns_ + t.idle_ms * 1'000'000 : 0;
}

size_t Transfer::on_write(char* data, size_t size, size_t count, void* self) {
  const int64_t now = steady_now_ns();  // stamp before anything else
  return static_cast<Transfer*>(self)->write(data, size * count, now);
}

size_t Transfer::write(const char* data, size_t bytes, int64_t now_ns) {
  last_read_ns_ = now_ns;
  if (!status_checked_) check_status(now_ns);
  if (collect_body_) {
    const size_t limit = result_.http_status >= 300 ? kMaxErrorBodyBytes : kMaxPlainBodyBytes;
    if (result_.body.size() + bytes > limit) {
      result_.error = ErrorKind::TooLarge;
      result_.error_message = "response body larger than " + std::to_string(limit) + " bytes";
      return 0;
    }
    result_.body.append(data, bytes);
    return bytes;
  }
  stream_bytes_ += static_cast<int64_t>(bytes);
  if (request_.max_stream_bytes > 0 && stream_bytes_ > request_.max_stream_bytes) {
    result_.error = ErrorKind::TooLarge;
    result_.error_message = "streamed response longer than the limit of " +
                            std::to_string(request_.max_stream_bytes) +
                            " bytes: the server did not stop (max_tokens ignored?)";
    return 0;
  }
  const size_t before = result_.events.size();
  const bool keep_reading = parser_->feed(std::string_view(data, bytes), now_ns);
  for (size_t i = before; i < result_.events.size(); ++i) {
    stream_tokens_ += std::max<int64_t>(result_.events[i].tokens, 1);
    if (observer_) observer_(result_.id, result_.events[i]);
  }
  if (request_.max_stream_tokens > 0 && stream_tokens_ > request_.max_stream_tokens) {
    result_.error = ErrorKind::TooLarge;
    result_.error_message = "streamed more than " + std::to_string(request_.max_stream_tokens) +
                            " tokens, several times the max_tokens asked for: the server did "
                            "not stop (max_tokens ignored?)";
    return 0;
  }
  return keep_reading ? bytes : 0;  // 0 makes curl stop with CURLE_WRITE_ERROR
}

void Transfer::check_status(int64_t now_ns) {
  status_checked_ = true;
  result_.t_first_byte_ns = now_ns;
  long status = 0;
  curl_easy_getinfo(easy_, CURLINFO_RESPONSE_CODE, &status);
  result_.http_status = static_cast<int>(status);
  collect_body_ = !parser_ || status >= 300;
  const char* content_type = nullptr;
  curl_easy_getinfo(easy_, CURLINFO_CONTENT_TYPE, &content_type);
  // A streaming request answered with one JSON document: the server ignored stream=true or
  // reported an error with status 200. Read it whole instead of framing it as a stream.
  json_instead_of_stream_ = parser_ && status < 300 && content_type &&
                            strncasecmp(content_type, "application/json", 16) == 0;
  json_instead_of_stream_ = json_instead_of_stream_ && request_.stream;
  collect_body_ = collect_body_ || json_instead_of_stream_ || !request_.stream;
  if (next_deadline_ns_ && request_.timeouts.idle_ms > 0) {
    const int64_t idle_deadline = now_ns + request_.timeouts.idle_ms * 1'000'000;
    if (idle_deadline < *next_deadline_ns_) *next_deadline_ns_ = idle_deadline;
  }
}

size_t Transfer::on_header(char* data, size_t size, size_t count, void* self) {
  auto* t = static_cast<Transfer*>(self);
  const size_t bytes = size * count;
  std::string_view line(data, bytes);
  if (line.rfind("HTTP/", 0) == 0) {
    t->result_.response_headers.clear();  // a new response head (e.g. after 100 Continue)
    return bytes;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return bytes;
  std::string_view value = line.substr(colon + 1);
  const size_t b = value.find_first_not_of(" \t");
  const size_t e = value.find_last_not_of(" \t\r\n");
  value = (b == std::string_view::npos) ? std::string_view() : value.substr(b, e - b + 1);
  t->result_.response_headers.emplace_back(std::string(line.substr(0, colon)), std::string(value));
  return bytes;
}

int Transfer::on_prereq(void* self, char*, char*, int, int) {
  auto* t = static_cast<Transfer*>(self);
  t->result_.t_sent_ns = steady_now_ns();
  t->request_started_ = true;
  return CURL_PREREQFUNC_OK;
}

}  // namespace lb::net

namespace lb::net {

void Transfer::fill_timings() {
  if (!easy_) return;
  long version = 0;
  curl_easy_getinfo(easy_, CURLINFO_HTTP_VERSION, &version);
  switch (version) {
    case CURL_HTTP_VERSION_1_0:
      result_.http_version_used = "1.0";
      break;
    case CURL_HTTP_VERSION_1_1:
      result_.http_version_used = "1.1";
      break;
    case CURL_HTTP_VERSION_2_0:
      result_.http_version_used = "2";
      break;
    case CURL_HTTP_VERSION_3:
      result_.http_version_used = "3";
      break;
    default:
      break;
  }
  if (result_.http_status == 0) {
    long status = 0;
    curl_easy_getinfo(easy_, CURLINFO_RESPONSE_CODE, &status);
    result_.http_status = static_cast<int>(status);
  }
  if (result_.t_sent_ns == 0) {
    // The request never reached the pre-request point (e.g. connect failed). If curl got as far
    // as its pre-transfer time, use it: it is measured from when curl started this transfer.
    curl_off_t pretransfer_us = 0;
    curl_easy_getinfo(easy_, CURLINFO_PRETRANSFER_TIME_T, &pretransfer_us);
    if (pretransfer_us > 0) result_.t_sent_ns = result_.t_submit_ns + pretransfer_us * 1000;
  }
}

void Transfer::fail(ErrorKind kind, std::string message, int64_t now_ns) {
  fill_timings();
  result_.t_done_ns = now_ns;
  if (result_.error == ErrorKind::None) {
    result_.error = kind;
    result_.error_message = std::move(message);
  }
}

void Transfer::finish(CURLcode code, int64_t now_ns) {
  fill_timings();
  result_.t_done_ns = now_ns;
  if (result_.error != ErrorKind::None) return;  // the parser or a limit already said why
  if (code != CURLE_OK) return classify_curl_error(code);
  if (result_.http_status >= 300) return classify_http_status();
  if (json_instead_of_stream_) return classify_json_document();
  if (parser_ && !request_.stream) return parser_->parse_document(result_.body, last_read_ns_);
  if (parser_) parser_->finish(now_ns);
}

void Transfer::classify_json_document() {
  const auto j = nlohmann::json::parse(result_.body, nullptr, false);
  if (auto message = error_message_of(j)) {
    result_.error = ErrorKind::StreamError;
    result_.error_message = *message;
    return;
  }
  result_.error = ErrorKind::Malformed;
  result_.error_message =
      "expected an event stream but the server sent one JSON document (did it ignore "
      "\"stream\": true?): " +
      result_.body.substr(0, 200);
}

void Transfer::classify_http_status() {
  const int status = result_.http_status;
  result_.error = status == 429 ? ErrorKind::RateLimited : ErrorKind::HttpStatus;
  const std::string message = error_message_from_body(result_.body);
  result_.error_message =
      "HTTP " + std::to_string(status) + (message.empty() ? "" : ": ") + message;
  if (status == 429 || status == 503) {
    result_.retry_after_s =
        retry_after_seconds(result_.response_headers, std::chrono::system_clock::now());
  }
}

void Transfer::classify_curl_error(CURLcode code) {
  std::string detail = error_buffer_[0] ? error_buffer_ : curl_easy_strerror(code);
  const bool got_bytes = result_.t_first_byte_ns != 0;
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT: {
      // The pre-request callback runs once a connection (new or reused) is ready.
      if (!request_started_) {
        result_.error = ErrorKind::Connect;
        result_.error_message = "connect timed out after " +
                                format_ms(request_.timeouts.connect_ms) + " (" + detail + ")";
      } else {
        result_.error = ErrorKind::TotalTimeout;
        result_.error_message = "total timeout of " + format_ms(request_.timeouts.total_ms) +
                                " reached after " + std::to_string(result_.events.size()) +
                                " events";
      }
      return;
    }
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
      result_.error = ErrorKind::Tls;
      result_.error_message = "TLS certificate verification failed: " + detail;
      return;
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SSL_CONNECT_ERROR:
      result_.error = ErrorKind::Connect;
      result_.error_message = "could not connect: " + detail;
      return;
    default:
      break;
  }
  if (result_.http_status >= 300 && !result_.body.empty()) return classify_http_status();
  result_.error = ErrorKind::Truncated;
  if (!got_bytes && code == CURLE_GOT_NOTHING) {
    result_.error_message = "server closed the connection without a response";
  } else {
    result_.error_message = "connection ended before the response was complete (" + detail +
                            ") after " + std::to_string(result_.events.size()) + " events";
  }
}

// A completion that throws on the result is called once more with a failed result carrying the
// exception's text, so the request is recorded (and counted as failed) rather than lost, and
// whoever waits for it is not left waiting. A second throw propagates to the caller.
void Transfer::complete() {
  if (!done_) return;
  auto done = std::move(done_);
  done_ = nullptr;
  // A server refusing a request may quote its images back: no data: URL leaves the client.
  if (result_.error != ErrorKind::None) {
    result_.error_message = redact_data_urls(std::move(result_.error_message));
    result_.body = redact_data_urls(std::move(result_.body));
  }
  StreamResult failed;
  failed.id = result_.id;
  failed.http_status = result_.http_status;
  failed.t_submit_ns = result_.t_submit_ns;
  failed.t_sent_ns = result_.t_sent_ns;
  failed.t_first_byte_ns = result_.t_first_byte_ns;
  failed.t_done_ns = result_.t_done_ns;
  failed.error = ErrorKind::ClientError;
  try {
    done(std::move(result_));
    return;
  } catch (const std::exception& e) {
    failed.error_message = std::string("processing the response failed: ") + e.what();
  } catch (...) {
    failed.error_message = "processing the response failed (unknown exception)";
  }
  done(std::move(failed));
}

}  // namespace lb::net
