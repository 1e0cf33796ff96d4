#pragma once
// HttpSession: one keep-alive HTTP/1.1 connection (Boost.Beast parses requests). Requests are
// handled one at a time; a response is either a whole message or a chunked stream whose chunks
// are written in order from a queue, each stamped (and traced) when its write completes.
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <optional>

#include "sim_config.h"

namespace lb::sim {

class TraceWriter;
class HttpSession;

using HttpRequestMsg = boost::beast::http::request<boost::beast::http::string_body>;
using HttpResponseMsg = boost::beast::http::response<boost::beast::http::string_body>;

class RequestHandler {
 public:
  virtual ~RequestHandler() = default;
  virtual void handle(const std::shared_ptr<HttpSession>& session, HttpRequestMsg request) = 0;
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(boost::asio::ip::tcp::socket socket, RequestHandler& handler, TraceWriter* trace);
  ~HttpSession();

  void start();

  // Whole response; ends the current request.
  void send(HttpResponseMsg response);
  // Chunked response: header now, then chunks, then end_stream().
  void begin_stream(boost::beast::http::status status, const std::string& content_type);
  void send_chunk(std::string data, std::optional<TraceRecord> trace = std::nullopt);
  void end_stream();
  // Closes the connection once the queued writes are out (a dropped stream).
  void drop_after_writes();
  void close();
  // Writes queued between cork() and uncork() leave in one send (events of one instant).
  void cork();
  void uncork();

  // Called once when the connection goes away for any reason.
  void set_on_close(std::function<void()> fn) { on_close_ = std::move(fn); }
  bool is_open() const { return !closed_; }
  bool keep_alive() const { return keep_alive_; }
  size_t queued_writes() const { return queue_.size(); }

 private:
  struct OutItem;
  void read_next();
  void continue_if_expected();
  void read_body();
  void dispatch_next();
  void enqueue(std::unique_ptr<OutItem> item);
  void write_next();
  void on_written(const boost::system::error_code& ec, int64_t sent_ns);
  void finish_item(int64_t sent_ns);
  bool write_gathered();
  void response_done();

  boost::asio::ip::tcp::socket socket_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  RequestHandler& handler_;
  TraceWriter* trace_;
  std::deque<HttpRequestMsg> pending_;
  std::deque<std::unique_ptr<OutItem>> queue_;
  std::function<void()> on_close_;
  bool writing_ = false;
  bool corked_ = false;
  bool busy_ = false;
  bool closed_ = false;
  bool keep_alive_ = true;
};

}  // namespace lb::sim
