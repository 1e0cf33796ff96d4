#pragma once
// Internal to ReplayServer: one accepted connection that reads requests and plays scripts.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>  // Boost 1.74's awaitable.hpp uses std::exchange without it

#include <boost/asio.hpp>

#include "replay_server.h"

namespace lb::test {

// Requests the server has seen; sessions update their entry by sequence number.
class ServedLog {
 public:
  uint64_t add(ServedRequest request);
  void update(uint64_t seq, const std::function<void(ServedRequest&)>& change);
  std::vector<ServedRequest> snapshot() const;
  bool wait_for_finished(size_t count, std::chrono::milliseconds timeout) const;
  void clear();

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::deque<ServedRequest> entries_;
  uint64_t last_seq_ = 0;
  uint64_t base_seq_ = 0;  // sequence numbers <= base were cleared
};

struct SessionShared {
  const Handler* handler = nullptr;
  ServedLog* log = nullptr;
  bool record_sends = true;
  size_t max_request_bytes = 0;
  std::atomic<size_t> accepted{0};
  std::atomic<size_t> open{0};
};

class ReplaySession : public std::enable_shared_from_this<ReplaySession> {
 public:
  ReplaySession(boost::asio::ip::tcp::socket socket, uint64_t number, SessionShared& shared);
  ~ReplaySession();
  void start();

 private:
  void read_head();
  void on_head(size_t head_bytes);
  void read_body(size_t head_bytes, size_t body_bytes);
  void dispatch(ServedRequest request);
  void write_head();
  void run_pieces();
  void finish_body();
  void finish_body_written();
  void wait_for_client_close();
  void close();
  void stamp_piece();
  // Writes out_ now if the socket takes it; otherwise finishes asynchronously and then calls
  // `then`. Returns true when everything was written synchronously.
  bool send(std::function<void()> then);
  void fail();

  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer timer_;
  SessionShared& shared_;
  uint64_t number_;
  std::string in_;
  std::string out_;
  size_t out_pos_ = 0;
  ResponseScript script_;
  uint64_t seq_ = 0;
  size_t next_piece_ = 0;
  bool delay_done_ = false;
  size_t body_offset_ = 0;
  int64_t piece_write_start_ns_ = 0;  // before the current piece's first write
  bool client_wants_close_ = false;
  char discard_[512];
};

}  // namespace lb::test
