#pragma once
// Transfer: one request's easy handle and everything its callbacks touch. Lives on the I/O
// thread from the moment StreamClient's loop receives it until its completion has been called.
#include <curl/curl.h>

#include <cstdint>
#include <memory>
#include <string>

#include "core/net/steady_clock.h"
#include "core/net/stream_client.h"
#include "core/net/stream_parser.h"

namespace lb::net {

class Transfer {
 public:
  Transfer(uint64_t id, HttpRequest request, StreamClient::Completion done,
           StreamClient::EventObserver observer, const ClientOptions& options);
  ~Transfer();
  Transfer(const Transfer&) = delete;
  Transfer& operator=(const Transfer&) = delete;

  // Creates and configures the easy handle. False (with result().error set) if curl refused.
  bool configure();
  void mark_submitted(int64_t now_ns) { result_.t_submit_ns = now_ns; }

  // Deadline for the first-byte or idle timer, 0 = none. Total and connect timeouts are curl's.
  int64_t deadline_ns() const;
  // Fails the request with a client-side error (timeouts, cancellation). Call after the easy
  // handle has left the multi handle.
  void fail(ErrorKind kind, std::string message, int64_t now_ns);
  // The transfer finished inside curl with `code`: classify and fill the result.
  void finish(CURLcode code, int64_t now_ns);
  // Hands the result to the completion (exactly once).
  void complete();

  uint64_t id() const { return result_.id; }
  CURL* easy() const { return easy_; }
  const HttpRequest& request() const { return request_; }
  bool body_started() const { return result_.t_first_byte_ns != 0; }
  // Lets the write callback pull the loop's next timer check forward when the first body byte
  // switches this transfer from its first-byte deadline to the (usually shorter) idle one.
  void set_deadline_hint(int64_t* next_deadline_ns) { next_deadline_ns_ = next_deadline_ns; }

 private:
  void configure_protocol();  // HTTP version, multiplexing, TLS
  void configure_request();   // headers, method, shared body
  static size_t on_write(char* data, size_t size, size_t count, void* self);
  static size_t on_header(char* data, size_t size, size_t count, void* self);
  static int on_prereq(void* self, char*, char*, int, int);
  size_t write(const char* data, size_t bytes, int64_t now_ns);
  void check_status(int64_t now_ns);
  void classify_curl_error(CURLcode code);
  void classify_http_status();
  void classify_json_document();
  void fill_timings();

  HttpRequest request_;
  StreamClient::Completion done_;
  StreamClient::EventObserver observer_;
  size_t max_event_bytes_;
  size_t receive_buffer_bytes_;
  CURL* easy_ = nullptr;
  curl_slist* headers_ = nullptr;
  StreamResult result_;
  std::unique_ptr<StreamParser> parser_;
  bool collect_body_ = false;
  bool status_checked_ = false;
  bool request_started_ = false;
  bool json_instead_of_stream_ = false;
  int64_t last_read_ns_ = 0;
  int64_t stream_bytes_ = 0;   // body bytes fed to the parser
  int64_t stream_tokens_ = 0;  // tokens of the events parsed so far (one per event if unknown)
  int64_t* next_deadline_ns_ = nullptr;
  char error_buffer_[CURL_ERROR_SIZE] = {};
};

}  // namespace lb::net
