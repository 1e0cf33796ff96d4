#include "replay_session.h"
#include "wire_text.h"

#include "h2_session.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>

namespace lb::test {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  const size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

const char* reason_phrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 404:
      return "Not Found";
    case 413:
      return "Payload Too Large";
    case 422:
      return "Unprocessable Entity";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    default:
      return "Status";
  }
}

// Parses "METHOD target HTTP/x" and header lines; returns false on a malformed head.
bool parse_head(const std::string& head, ServedRequest& request) {
  size_t line_end = head.find("\r\n");
  const std::string first = head.substr(0, line_end);
  const size_t sp1 = first.find(' ');
  const size_t sp2 = first.find(' ', sp1 + 1);
  if (sp1 == std::string::npos || sp2 == std::string::npos) return false;
  request.method = first.substr(0, sp1);
  request.target = first.substr(sp1 + 1, sp2 - sp1 - 1);
  size_t pos = line_end + 2;
  while (pos < head.size()) {
    line_end = head.find("\r\n", pos);
    if (line_end == std::string::npos || line_end == pos) break;
    const std::string line = head.substr(pos, line_end - pos);
    const size_t colon = line.find(':');
    if (colon != std::string::npos) {
      request.headers.emplace_back(lower(line.substr(0, colon)), trim(line.substr(colon + 1)));
    }
    pos = line_end + 2;
  }
  return true;
}

}  // namespace

ReplaySession::ReplaySession(tcp::socket socket, uint64_t number, SessionShared& shared)
    : socket_(std::move(socket)), timer_(socket_.get_executor()), shared_(shared), number_(number) {
  ++shared_.open;
}

ReplaySession::~ReplaySession() { --shared_.open; }

void ReplaySession::start() {
  boost::system::error_code ignored;
  socket_.non_blocking(true, ignored);
  read_head();
}

void ReplaySession::read_head() {
  asio::async_read_until(socket_, asio::dynamic_buffer(in_, shared_.max_request_bytes), "\r\n\r\n",
                         [self = shared_from_this()](boost::system::error_code ec, size_t n) {
                           if (ec) return self->close();
                           self->on_head(n);
                         });
}

void ReplaySession::on_head(size_t head_bytes) {
  if (seq_ == 0 && in_.rfind("PRI * HTTP/2.0\r\n", 0) == 0) {
    // HTTP/2 with prior knowledge: the rest of this connection belongs to an H2Session.
    std::make_shared<H2Session>(std::move(socket_), number_, shared_, std::move(in_))->start();
    return;
  }
  ServedRequest probe;
  if (!parse_head(in_.substr(0, head_bytes), probe)) return close();
  const std::string length = probe.header("content-length");
  const size_t body_bytes = length.empty() ? 0 : std::stoull(length);
  if (lower(probe.header("expect")) == "100-continue" && in_.size() < head_bytes + body_bytes) {
    out_ = "HTTP/1.1 100 Continue\r\n\r\n";
    out_pos_ = 0;
    if (!send([self = shared_from_this(), head_bytes, body_bytes] {
          self->read_body(head_bytes, body_bytes);
        })) {
      return;
    }
  }
  read_body(head_bytes, body_bytes);
}

void ReplaySession::read_body(size_t head_bytes, size_t body_bytes) {
  const size_t have = in_.size() - head_bytes;
  auto complete = [self = shared_from_this(), head_bytes, body_bytes] {
    ServedRequest request;
    parse_head(self->in_.substr(0, head_bytes), request);
    request.body = self->in_.substr(head_bytes, body_bytes);
    self->in_.erase(0, head_bytes + body_bytes);  // keep pipelined bytes
    request.received_ns = now_ns();
    request.connection = self->number_;
    self->dispatch(std::move(request));
  };
  if (have >= body_bytes) return complete();
  asio::async_read(socket_, asio::dynamic_buffer(in_, shared_.max_request_bytes),
                   asio::transfer_at_least(body_bytes - have),
                   [self = shared_from_this(), complete](boost::system::error_code ec, size_t) {
                     if (ec) return self->close();
                     complete();
                   });
}

void ReplaySession::dispatch(ServedRequest request) {
  client_wants_close_ = lower(request.header("connection")) == "close";
  try {
    script_ = (*shared_.handler)(request);
  } catch (const std::exception& e) {
    script_ = error_script(500, std::string("{\"error\":\"handler threw: ") + e.what() + "\"}");
  }
  seq_ = shared_.log->add(std::move(request));
  next_piece_ = 0;
  delay_done_ = false;
  body_offset_ = 0;
  if (script_.never_answer) {
    shared_.log->update(seq_, [](ServedRequest& r) { r.finished = true; });
    return wait_for_client_close();
  }
  if (script_.header_delay_us > 0) {
    timer_.expires_after(std::chrono::microseconds(script_.header_delay_us));
    timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (!ec) self->write_head();
    });
    return;
  }
  write_head();
}

void ReplaySession::write_head() {
  const int status = script_.status;
  out_ = "HTTP/1.1 " + std::to_string(status) + " " +
         (script_.reason.empty() ? reason_phrase(status) : script_.reason) + "\r\n";
  bool has_type = false;
  for (const auto& [name, value] : script_.headers) {
    has_type = has_type || lower(name) == "content-type";
    out_ += name + ": " + value + "\r\n";
  }
  if (!has_type) out_ += "Content-Type: text/event-stream\r\n";
  if (script_.framing == BodyFraming::Chunked) {
    out_ += "Transfer-Encoding: chunked\r\n";
  } else if (script_.framing == BodyFraming::ContentLength) {
    size_t total = 0;
    for (const auto& piece : script_.pieces) total += piece.bytes.size();
    out_ += "Content-Length: " + std::to_string(total) + "\r\n";
  }
  if (script_.framing == BodyFraming::CloseDelimited || script_.close_after ||
      client_wants_close_) {
    out_ += "Connection: close\r\n";
  }
  out_ += "\r\n";
  out_pos_ = 0;
  auto after = [this] {
    const int64_t t = now_ns();
    shared_.log->update(seq_, [t](ServedRequest& r) { r.headers_sent_ns = t; });
  };
  if (send([self = shared_from_this(), after] {
        after();
        self->run_pieces();
      })) {
    after();
    run_pieces();
  }
}

void ReplaySession::run_pieces() {
  while (next_piece_ < script_.pieces.size()) {
    const BodyPiece& piece = script_.pieces[next_piece_];
    if (piece.delay_us > 0 && !delay_done_) {
      delay_done_ = true;
      timer_.expires_after(std::chrono::microseconds(piece.delay_us));
      timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
        if (!ec) self->run_pieces();
      });
      return;
    }
    delay_done_ = false;
    out_.clear();
    out_pos_ = 0;
    if (script_.framing == BodyFraming::Chunked && !piece.bytes.empty()) {
      char size_line[32];
      std::snprintf(size_line, sizeof size_line, "%zx\r\n", piece.bytes.size());
      out_ += size_line;
      out_ += piece.bytes;
      out_ += "\r\n";
    } else {
      out_ = piece.bytes;
    }
    body_offset_ += piece.bytes.size();
    ++next_piece_;
    piece_write_start_ns_ = now_ns();
    if (!send([self = shared_from_this()] {
          self->stamp_piece();
          self->run_pieces();
        })) {
      return;
    }
    stamp_piece();
  }
  finish_body();
}

void ReplaySession::stamp_piece() {
  const int64_t t = now_ns();
  if (!shared_.record_sends) return;
  const size_t end = body_offset_;
  const int64_t start = piece_write_start_ns_;
  shared_.log->update(seq_, [t, end, start](ServedRequest& r) {
    r.sent.push_back({end, t, start});
  });
}

bool ReplaySession::send(std::function<void()> then) {
  while (out_pos_ < out_.size()) {
    boost::system::error_code ec;
    const size_t n =
        socket_.write_some(asio::buffer(out_.data() + out_pos_, out_.size() - out_pos_), ec);
    out_pos_ += n;
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
      socket_.async_wait(tcp::socket::wait_write,
                         [self = shared_from_this(), then](boost::system::error_code wec) {
                           if (wec) return self->fail();
                           if (self->send(then)) then();
                         });
      return false;
    }
    if (ec) {
      fail();
      return false;
    }
  }
  return true;
}

void ReplaySession::finish_body() {
  shared_.log->update(seq_, [](ServedRequest& r) { r.finished = true; });
  switch (script_.ending) {
    case Ending::CloseMidStream:
      return close();
    case Ending::Stall:
      return wait_for_client_close();
    case Ending::Complete:
      break;
  }
  if (script_.framing == BodyFraming::Chunked) {
    out_ = "0\r\n\r\n";
    out_pos_ = 0;
    if (!send([self = shared_from_this()] { self->finish_body_written(); })) return;
  }
  finish_body_written();
}

void ReplaySession::finish_body_written() {
  if (script_.framing == BodyFraming::CloseDelimited || script_.close_after ||
      client_wants_close_) {
    return close();
  }
  read_head();  // keep-alive: the next request on this connection
}

void ReplaySession::wait_for_client_close() {
  socket_.async_read_some(asio::buffer(discard_),
                          [self = shared_from_this()](boost::system::error_code ec, size_t) {
                            if (ec) return self->close();
                            self->wait_for_client_close();
                          });
}

void ReplaySession::fail() {
  shared_.log->update(seq_, [](ServedRequest& r) { r.write_failed = true; });
  close();
}

void ReplaySession::close() {
  boost::system::error_code ignored;
  timer_.cancel();
  socket_.shutdown(tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
}

}  // namespace lb::test
