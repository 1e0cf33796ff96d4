#include "http_session.h"

#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_suffix.hpp>
#include <boost/beast/core/string.hpp>
#include <sstream>

#include "asio_sim_clock.h"
#include "core/text/http_date.h"
#include "trace_writer.h"

namespace lb::sim {

namespace beast = boost::beast;
namespace http = beast::http;
namespace asio = boost::asio;

namespace {
constexpr uint64_t kMaxBodyBytes = 512ULL * 1024 * 1024;  // a 262K-token prompt is ~1 MB

// The real clock, as every server sends it: shards of a plan read their offset from it.
std::string date_now() {
  using namespace std::chrono;
  return text::http_date(duration_cast<seconds>(system_clock::now().time_since_epoch()).count());
}
}  // namespace

struct HttpSession::OutItem {
  enum class Kind { Message, Header, Chunk, LastChunk, Close } kind = Kind::Chunk;
  std::shared_ptr<HttpResponseMsg> message;
  std::string data;  // header text or chunk payload; never modified once queued
  std::optional<http::chunk_body<asio::const_buffer>> chunk;
  std::optional<http::chunk_last<http::chunk_crlf>> last;
  std::optional<TraceRecord> trace;
  bool ends_response = false;

  bool immediate() const {
    return kind == Kind::Header || kind == Kind::Chunk || kind == Kind::LastChunk;
  }
  // The item's bytes as buffers (Beast frames chunks); returns their size.
  size_t append_buffers(std::vector<asio::const_buffer>& out) const {
    const size_t before = beast::buffer_bytes(out);
    if (kind == Kind::Header) out.push_back(asio::buffer(data));
    if (kind == Kind::Chunk) {
      for (auto b : beast::buffers_range_ref(*chunk)) out.push_back(b);
    }
    if (kind == Kind::LastChunk) {
      for (auto b : beast::buffers_range_ref(*last)) out.push_back(b);
    }
    return beast::buffer_bytes(out) - before;
  }
};

HttpSession::HttpSession(asio::ip::tcp::socket socket, RequestHandler& handler, TraceWriter* trace)
    : socket_(std::move(socket)), handler_(handler), trace_(trace) {
  socket_.set_option(asio::ip::tcp::no_delay(true));
  socket_.non_blocking(true);  // for write_now(); async operations are unaffected
}

HttpSession::~HttpSession() = default;

void HttpSession::start() { read_next(); }

void HttpSession::read_next() {
  if (closed_) return;
  parser_.emplace();
  parser_->body_limit(kMaxBodyBytes);
  http::async_read_header(socket_, buffer_, *parser_,
                          [self = shared_from_this()](beast::error_code ec, size_t) {
                            if (ec) return self->close();
                            self->continue_if_expected();
                          });
}

void HttpSession::continue_if_expected() {
  // curl and libcurl send "Expect: 100-continue" with bodies over 1 MB (long-context prompts)
  // and hold the body back for a second unless told to go on, as uvicorn does.
  const auto& req = parser_->get();
  if (!busy_ && beast::iequals(req[http::field::expect], "100-continue")) {
    auto go_on = std::make_shared<http::response<http::empty_body>>(http::status::continue_, 11);
    http::async_write(socket_, *go_on,
                      [self = shared_from_this(), go_on](beast::error_code ec, size_t) {
                        if (ec) return self->close();
                        self->read_body();
                      });
    return;
  }
  read_body();
}

void HttpSession::read_body() {
  http::async_read(socket_, buffer_, *parser_,
                   [self = shared_from_this()](beast::error_code ec, size_t) {
                     if (ec) return self->close();
                     self->pending_.push_back(self->parser_->release());
                     if (!self->busy_) self->dispatch_next();
                     self->read_next();
                   });
}

void HttpSession::dispatch_next() {
  if (closed_ || busy_ || pending_.empty()) return;
  busy_ = true;
  HttpRequestMsg request = std::move(pending_.front());
  pending_.pop_front();
  keep_alive_ = request.keep_alive();
  handler_.handle(shared_from_this(), std::move(request));
}

void HttpSession::send(HttpResponseMsg response) {
  response.keep_alive(keep_alive_);
  response.set(http::field::date, date_now());
  response.prepare_payload();
  auto item = std::make_unique<OutItem>();
  item->kind = OutItem::Kind::Message;
  item->message = std::make_shared<HttpResponseMsg>(std::move(response));
  item->ends_response = true;
  enqueue(std::move(item));
}

void HttpSession::begin_stream(http::status status, const std::string& content_type) {
  auto item = std::make_unique<OutItem>();
  item->kind = OutItem::Kind::Header;
  http::response<http::empty_body> header{status, 11};
  header.set(http::field::content_type, content_type);
  header.set(http::field::server, "uvicorn");
  header.set(http::field::date, date_now());
  header.keep_alive(keep_alive_);
  header.chunked(true);
  // Beast serializes the header; it is sent like the chunks, with one non-blocking write.
  std::ostringstream text;
  text << header.base();
  item->data = text.str();
  enqueue(std::move(item));
}

void HttpSession::send_chunk(std::string data, std::optional<TraceRecord> trace) {
  auto item = std::make_unique<OutItem>();
  item->kind = OutItem::Kind::Chunk;
  item->data = std::move(data);
  item->chunk.emplace(asio::buffer(item->data));
  item->trace = std::move(trace);
  enqueue(std::move(item));
}

void HttpSession::end_stream() {
  auto item = std::make_unique<OutItem>();
  item->kind = OutItem::Kind::LastChunk;
  item->last.emplace(http::make_chunk_last());
  item->ends_response = true;
  enqueue(std::move(item));
}

void HttpSession::drop_after_writes() {
  auto item = std::make_unique<OutItem>();
  item->kind = OutItem::Kind::Close;
  enqueue(std::move(item));
}

void HttpSession::enqueue(std::unique_ptr<OutItem> item) {
  if (closed_) return;
  queue_.push_back(std::move(item));
  if (!writing_) write_next();
}

void HttpSession::cork() { corked_ = true; }

void HttpSession::uncork() {
  corked_ = false;
  if (!writing_) write_next();
}

void HttpSession::write_next() {
  if (corked_) return;
  while (!closed_ && !queue_.empty()) {
    writing_ = true;
    OutItem& front = *queue_.front();
    if (front.kind == OutItem::Kind::Close) {
      writing_ = false;
      close();
      return;
    }
    if (front.kind == OutItem::Kind::Message) {
      http::async_write(socket_, *front.message,
                        [self = shared_from_this()](beast::error_code ec, size_t) {
                          self->on_written(ec, steady_now_ns());
                        });
      return;
    }
    if (!write_gathered()) return;
  }
  writing_ = false;
}

bool HttpSession::write_gathered() {
  // Everything queued for this instant (header, chunks, last chunk) goes out in one
  // non-blocking send, so the trace stamp is taken right after the bytes reached the socket;
  // only what the socket cannot take now is left to async_write.
  constexpr size_t kMaxItems = 64;
  std::vector<asio::const_buffer> buffers;
  std::vector<size_t> sizes;
  for (const auto& item : queue_) {
    if (!item->immediate() || sizes.size() == kMaxItems) break;
    sizes.push_back(item->append_buffers(buffers));
  }
  beast::error_code ec;
  size_t n = socket_.write_some(buffers, ec);
  if (ec && ec != asio::error::would_block && ec != asio::error::try_again) {
    close();
    return false;
  }
  if (ec) n = 0;
  const int64_t sent_ns = steady_now_ns();
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (n < sizes[i]) {
      std::vector<asio::const_buffer> own;
      queue_.front()->append_buffers(own);
      beast::buffers_suffix<std::vector<asio::const_buffer>> rest(std::move(own));
      rest.consume(n);
      asio::async_write(socket_, rest, [self = shared_from_this()](beast::error_code e, size_t) {
        self->on_written(e, steady_now_ns());
      });
      return false;
    }
    n -= sizes[i];
    finish_item(sent_ns);
    if (closed_) return false;
  }
  return true;
}

void HttpSession::on_written(const boost::system::error_code& ec, int64_t sent_ns) {
  if (ec) {
    close();
    return;
  }
  finish_item(sent_ns);
  write_next();
}

void HttpSession::finish_item(int64_t sent_ns) {
  std::unique_ptr<OutItem> item = std::move(queue_.front());
  queue_.pop_front();
  if (item->trace && trace_ && trace_->enabled()) {
    item->trace->sent_ns = sent_ns;
    trace_->write(*item->trace);
  }
  if (item->ends_response && trace_) trace_->flush();  // a finished response is on disk
  if (item->ends_response) response_done();
}

void HttpSession::response_done() {
  busy_ = false;
  on_close_ = nullptr;
  if (!keep_alive_) {
    beast::error_code ignored;
    socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
    close();
    return;
  }
  dispatch_next();
}

void HttpSession::close() {
  if (closed_) return;
  closed_ = true;
  beast::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
  pending_.clear();  // queued items stay until destruction: an in-flight write may use one
  if (auto fn = std::move(on_close_)) {
    on_close_ = nullptr;
    fn();
  }
}

}  // namespace lb::sim
