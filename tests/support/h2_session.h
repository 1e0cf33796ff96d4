#pragma once
// Internal to ReplayServer: a connection that opened with the HTTP/2 client preface (prior
// knowledge, "h2c"). Requests on its streams run the same scripts as HTTP/1.1 ones, several at
// once on one connection; each body piece is a DATA frame and is stamped once written.
// Ending::CloseMidStream resets the stream (RST_STREAM), leaving the connection's others alive.
#include <nghttp2/nghttp2.h>

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>  // before Boost 1.74's asio, which uses std::exchange

#include <boost/asio.hpp>

#include "replay_session.h"

namespace lb::test {

class H2Session : public std::enable_shared_from_this<H2Session> {
 public:
  H2Session(boost::asio::ip::tcp::socket socket, uint64_t number, SessionShared& shared,
            std::string already_read);
  ~H2Session();
  void start();

 private:
  struct Stream {
    int32_t id = 0;
    ServedRequest request;
    uint64_t seq = 0;
    ResponseScript script;
    size_t next_piece = 0;
    std::string pending;  // body bytes not yet taken by nghttp2
    size_t body_offset = 0;
    size_t consumed = 0;           // body bytes nghttp2 has framed
    std::deque<size_t> unstamped;  // piece ends (body offsets) awaiting their write
    bool body_complete = false;
    bool responded = false;
    std::unique_ptr<boost::asio::steady_timer> timer;
  };

  static ssize_t on_read_data(nghttp2_session*, int32_t stream_id, uint8_t* buf, size_t length,
                              uint32_t* flags, nghttp2_data_source*, void* self);
  static int on_begin_headers(nghttp2_session*, const nghttp2_frame* frame, void* self);
  static int on_header(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name,
                       size_t namelen, const uint8_t* value, size_t valuelen, uint8_t flags,
                       void* self);
  static int on_data_chunk(nghttp2_session*, uint8_t flags, int32_t stream_id, const uint8_t* data,
                           size_t len, void* self);
  static int on_frame_recv(nghttp2_session*, const nghttp2_frame* frame, void* self);
  static int on_stream_close(nghttp2_session*, int32_t stream_id, uint32_t error_code, void* self);

  void read();
  bool receive(const char* data, size_t size);
  void dispatch(Stream& stream);
  void respond(int32_t stream_id);
  void next_piece(int32_t stream_id);
  void flush();
  void stamp_written();
  void close();

  boost::asio::ip::tcp::socket socket_;
  SessionShared& shared_;
  uint64_t number_;
  std::string initial_;
  nghttp2_session* session_ = nullptr;
  std::map<int32_t, Stream> streams_;
  // Pieces of streams that nghttp2 closed before their last bytes reached the socket.
  int64_t write_start_ns_ = 0;  // before the first write of the bytes now being flushed
  std::vector<std::pair<uint64_t, size_t>> orphan_stamps_;  // seq, body end
  std::string out_;
  size_t out_pos_ = 0;
  bool writing_ = false;
  bool flush_again_ = false;
  bool closed_ = false;
  char in_[16384];
};

}  // namespace lb::test
