#pragma once
// ReplayServer: a scripted HTTP/1.1 server on 127.0.0.1 for tests and benchmarks.
//
// It listens on an ephemeral port, runs its own I/O thread(s) and answers every request with a
// ResponseScript returned by the caller's handler: a status line and headers, then body pieces
// written one by one with a controlled delay before each, so a test can split a stream at any
// byte. Right after each piece is handed to the kernel the server stamps steady_clock: that is
// the ground truth a client's arrival times are checked against (same process, same clock).
//
// Scripts can also stall, close mid-stream, never answer, answer late, or send any status with
// any headers (429 + Retry-After etc.). Connections are kept alive between requests unless the
// script or the client says otherwise, and many connections are served concurrently (benchmarks
// run 1,000 streams against one server).
//
// Typical use:
//   lb::test::ReplayServer server([](const lb::test::ServedRequest&) {
//     return lb::test::sse_script(lb::test::split_sse_events(
//         lb::test::load_fixture("wire/vllm_chat_stream.sse")), /*delay_us=*/2000);
//   });
//   std::string url = server.url("/v1/chat/completions");
//   ... run a client ...
//   auto log = server.served();  // one entry per request, with per-piece send times
//
// For https, put a TlsFrontend (tls_frontend.h) in front of the server's port; it also makes a
// self-signed certificate to use as the client's CA bundle.
//
// Thread safety: the handler runs on a server thread (several at once when threads > 1).
// served(), wait_for_served() and clear_served() may be called from any thread.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "wire_fixture.h"

namespace lb::test {

// One body write: wait delay_us (from the previous write, or from the end of the header write),
// then write bytes in a single send, then stamp the time.
struct BodyPiece {
  std::string bytes;
  int64_t delay_us = 0;
};

// How the response ends once every piece has been written.
enum class Ending {
  Complete,        // proper end of body; connection stays open for the next request
  CloseMidStream,  // close the socket without ending the body (chunked: no terminal chunk)
  Stall,           // stop writing, keep the connection open until the client goes away
};

// How the body is delimited on the wire.
enum class BodyFraming {
  Chunked,        // Transfer-Encoding: chunked (what uvicorn/vLLM, SGLang, TGI send when streaming)
  ContentLength,  // Content-Length: total of all pieces (an early close then reads as truncated)
  CloseDelimited  // no length; the body ends when the server closes (Connection: close)
};

struct ResponseScript {
  int status = 200;
  std::string reason;  // empty = standard phrase for the status
  // Extra header lines. Content-Type defaults to text/event-stream when absent; framing headers
  // (Transfer-Encoding / Content-Length / Connection) are added by the server.
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<BodyPiece> pieces;
  Ending ending = Ending::Complete;
  BodyFraming framing = BodyFraming::Chunked;
  int64_t header_delay_us = 0;  // wait before the status line (models prefill / first byte)
  bool never_answer = false;    // read the request, then send nothing at all
  bool close_after = false;     // Connection: close after a Complete response
};

// One piece as it left the server.
struct SentPiece {
  size_t body_end = 0;  // body offset just past this piece (sum of piece sizes so far)
  int64_t sent_ns = 0;  // steady_clock ns right after the kernel accepted the whole piece
  // steady_clock ns just before the first write of the piece. No byte of it can reach the client
  // earlier, while sent_ns may come late when the server thread is preempted after its write:
  // together they bracket the true send time.
  int64_t write_start_ns = 0;
};

// A request the server received, and what it sent back (filled in as the response goes out).
struct ServedRequest {
  uint64_t seq = 0;         // 1, 2, ... in order of arrival
  uint64_t connection = 0;  // connection number (equal values = a reused connection)
  int64_t received_ns = 0;  // steady_clock ns when the request head and body were complete
  std::string method;
  std::string target;                                        // e.g. "/v1/chat/completions"
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
  std::string body;
  int64_t headers_sent_ns = 0;  // right after the status line + headers were written
  std::vector<SentPiece> sent;  // one per body piece actually written
  bool finished = false;        // the script ran to its end (Complete / Close / Stall reached)
  bool write_failed = false;    // the client went away while the server was writing

  // Header value by lower-case name, or "" when absent.
  std::string header(const std::string& lower_name) const;
  // Ground truth for a body offset: send time of the piece containing byte `offset`.
  int64_t sent_ns_for_offset(size_t offset) const;
};

using Handler = std::function<ResponseScript(const ServedRequest& request)>;

struct ServerOptions {
  int threads = 1;           // I/O threads serving connections
  bool record_sends = true;  // false skips the per-piece log (long benchmarks)
  size_t max_request_bytes = 64 << 20;
};

class ReplayServer {
 public:
  explicit ReplayServer(Handler handler, ServerOptions options = {});
  ~ReplayServer();  // closes every connection and joins the threads
  ReplayServer(const ReplayServer&) = delete;
  ReplayServer& operator=(const ReplayServer&) = delete;

  uint16_t port() const;
  std::string base_url() const;                    // "http://127.0.0.1:PORT"
  std::string url(const std::string& path) const;  // base_url() + path

  // Snapshot of every request received so far, in arrival order.
  std::vector<ServedRequest> served() const;
  // Waits until at least `count` requests have finished their scripts (or the timeout passes).
  bool wait_for_finished(size_t count, std::chrono::milliseconds timeout) const;
  void clear_served();
  size_t connections_accepted() const;
  size_t open_connections() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// --- script builders -------------------------------------------------------------------------

// Every piece becomes one write, `delay_us` apart (the first one delay_us after the headers).
ResponseScript sse_script(const std::vector<std::string>& pieces, int64_t delay_us,
                          std::string content_type = "text/event-stream");
// A JSON error response before any stream (e.g. 400, 503) with the given body.
ResponseScript error_script(int status, std::string body,
                            std::vector<std::pair<std::string, std::string>> headers = {});

}  // namespace lb::test
