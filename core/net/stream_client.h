#pragma once
// StreamClient owns one I/O thread with a curl multi handle and every easy handle. submit() may be
// called from any thread; commands reach the I/O thread through a locked queue plus
// curl_multi_wakeup. Callbacks run on the I/O thread: keep them short and hand values onwards.
#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>

#include "core/net/http_types.h"

namespace lb::net {

struct ClientOptions {
  // Larger events fail the request as TooLarge. Streamed deltas are a few hundred bytes; the
  // largest legitimate ones (prompt_token_ids echoed for a 241K-token prompt) are ~2 MB.
  size_t max_event_bytes = 8 * 1024 * 1024;
  long max_host_connections = 0;             // 0 = unlimited
  size_t receive_buffer_bytes = 512 * 1024;  // curl's buffer; small buffers throttle long contexts
  // A stop flag (a run's Stop button). Once it reads true, every transfer in flight and every
  // later submit completes as Cancelled within kCancelPollMs, so no blocking fetch() keeps a
  // stopping run waiting for its timeout. It must outlive the client.
  const std::atomic<bool>* cancel_when = nullptr;
  // Transfers under way at once; later submits wait their turn, in order (their t_sent is when
  // they go). 0 = a third of the process's descriptor limit, less a reserve: every transfer holds
  // a socket and each may leave an idle one behind, and the run folder's files need descriptors
  // too, so a load beyond what one process may open queues instead of failing to connect and
  // losing the run's files.
  size_t max_transfers = 0;
};

// ClientOptions::max_transfers when 0, from this process's RLIMIT_NOFILE.
size_t default_max_transfers();

constexpr int kCancelPollMs = 20;  // how often the I/O thread looks at ClientOptions::cancel_when

class StreamClient {
 public:
  using Completion = std::function<void(StreamResult&&)>;
  // Called on the I/O thread for each content/reasoning event as it arrives (optional).
  using EventObserver = std::function<void(uint64_t id, const EventArrival&)>;

  // Initialises libcurl, and OpenSSL under it, once per process; the first client does it. It
  // also raises the process's soft descriptor limit to its hard one.
  // A program that makes clients on pooled or short-lived threads calls it first on its main
  // thread, as curl asks: OpenSSL then keeps its per-thread state on the main thread, not on a
  // worker that may be gone or still parked at exit.
  static void global_init();

  explicit StreamClient(ClientOptions options = {});
  ~StreamClient();  // cancels what is in flight, completes it as Cancelled, joins the thread
  StreamClient(const StreamClient&) = delete;
  StreamClient& operator=(const StreamClient&) = delete;

  // Returns the request id (never 0). `done` is called exactly once, on the I/O thread.
  uint64_t submit(HttpRequest request, Completion done, EventObserver observer = nullptr);
  void cancel(uint64_t id);
  void cancel_all();
  // Transfers under way at most; the rest wait their turn (ClientOptions::max_transfers).
  size_t max_transfers() const;
  size_t in_flight() const;
  // Completions that threw twice: on the result, and again on the failed record made from the
  // first exception (Transfer::complete). Zero unless a completion is broken.
  size_t lost_completions() const;

  // Convenience for probes and /metrics: submit and wait. Not from a Completion or
  // EventObserver (those run on the I/O thread): throws std::logic_error there.
  StreamResult fetch(HttpRequest request);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lb::net
