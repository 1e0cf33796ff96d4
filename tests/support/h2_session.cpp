#include "h2_session.h"
#include "wire_text.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>

namespace lb::test {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

nghttp2_nv make_nv(const std::string& name, const std::string& value) {
  return {reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
          reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
          NGHTTP2_NV_FLAG_NONE};
}

}  // namespace

H2Session::H2Session(tcp::socket socket, uint64_t number, SessionShared& shared,
                     std::string already_read)
    : socket_(std::move(socket)),
      shared_(shared),
      number_(number),
      initial_(std::move(already_read)) {
  ++shared_.open;
}

H2Session::~H2Session() {
  if (session_) nghttp2_session_del(session_);
  --shared_.open;
}

void H2Session::start() {
  nghttp2_session_callbacks* callbacks = nullptr;
  nghttp2_session_callbacks_new(&callbacks);
  nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, &H2Session::on_begin_headers);
  nghttp2_session_callbacks_set_on_header_callback(callbacks, &H2Session::on_header);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &H2Session::on_data_chunk);
  nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &H2Session::on_frame_recv);
  nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &H2Session::on_stream_close);
  nghttp2_session_server_new(&session_, callbacks, this);
  nghttp2_session_callbacks_del(callbacks);
  // Room for 1,000 concurrent streams on one connection.
  const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 4096}};
  nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, settings, 1);
  const std::string first = std::move(initial_);
  if (!receive(first.data(), first.size())) return;
  flush();
  read();
}

bool H2Session::receive(const char* data, size_t size) {
  const ssize_t n =
      nghttp2_session_mem_recv(session_, reinterpret_cast<const uint8_t*>(data), size);
  if (n < 0) {
    close();
    return false;
  }
  return true;
}

void H2Session::read() {
  socket_.async_read_some(asio::buffer(in_), [self = shared_from_this()](auto ec, size_t n) {
    if (ec) return self->close();
    if (!self->receive(self->in_, n)) return;
    self->flush();
    self->read();
  });
}

int H2Session::on_begin_headers(nghttp2_session*, const nghttp2_frame* frame, void* self) {
  if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
  auto* s = static_cast<H2Session*>(self);
  Stream& stream = s->streams_[frame->hd.stream_id];
  stream.id = frame->hd.stream_id;
  stream.request.connection = s->number_;
  return 0;
}

int H2Session::on_header(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name,
                         size_t namelen, const uint8_t* value, size_t valuelen, uint8_t,
                         void* self) {
  auto* s = static_cast<H2Session*>(self);
  const auto it = s->streams_.find(frame->hd.stream_id);
  if (it == s->streams_.end()) return 0;
  const std::string n(reinterpret_cast<const char*>(name), namelen);
  const std::string v(reinterpret_cast<const char*>(value), valuelen);
  ServedRequest& r = it->second.request;
  if (n == ":method") {
    r.method = v;
  } else if (n == ":path") {
    r.target = v;
  } else if (!n.empty() && n[0] != ':') {
    r.headers.emplace_back(lower(n), v);
  }
  return 0;
}

int H2Session::on_data_chunk(nghttp2_session*, uint8_t, int32_t stream_id, const uint8_t* data,
                             size_t len, void* self) {
  auto* s = static_cast<H2Session*>(self);
  const auto it = s->streams_.find(stream_id);
  if (it != s->streams_.end())
    it->second.request.body.append(reinterpret_cast<const char*>(data), len);
  return 0;
}

int H2Session::on_frame_recv(nghttp2_session*, const nghttp2_frame* frame, void* self) {
  const bool request_end = (frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) &&
                           (frame->hd.flags & NGHTTP2_FLAG_END_STREAM);
  if (!request_end) return 0;
  auto* s = static_cast<H2Session*>(self);
  const auto it = s->streams_.find(frame->hd.stream_id);
  if (it != s->streams_.end()) s->dispatch(it->second);
  return 0;
}

int H2Session::on_stream_close(nghttp2_session*, int32_t stream_id, uint32_t, void* self) {
  auto* s = static_cast<H2Session*>(self);
  const auto it = s->streams_.find(stream_id);
  if (it == s->streams_.end()) return 0;
  Stream& stream = it->second;
  if (stream.timer) stream.timer->cancel();
  for (size_t end : stream.unstamped) {
    if (end <= stream.consumed) s->orphan_stamps_.emplace_back(stream.seq, end);
  }
  s->streams_.erase(it);
  return 0;
}

void H2Session::dispatch(Stream& stream) {
  stream.request.received_ns = now_ns();
  try {
    stream.script = (*shared_.handler)(stream.request);
  } catch (const std::exception& e) {
    stream.script =
        error_script(500, std::string("{\"error\":\"handler threw: ") + e.what() + "\"}");
  }
  stream.seq = shared_.log->add(stream.request);
  stream.timer = std::make_unique<asio::steady_timer>(socket_.get_executor());
  if (stream.script.never_answer) {
    shared_.log->update(stream.seq, [](ServedRequest& r) { r.finished = true; });
    return;
  }
  const int32_t id = stream.id;
  if (stream.script.header_delay_us > 0) {
    stream.timer->expires_after(std::chrono::microseconds(stream.script.header_delay_us));
    stream.timer->async_wait([self = shared_from_this(), id](auto ec) {
      if (!ec) self->respond(id);
    });
    return;
  }
  // This runs inside nghttp2_session_mem_recv, which must not be re-entered by mem_send.
  asio::post(socket_.get_executor(), [self = shared_from_this(), id] { self->respond(id); });
}

void H2Session::respond(int32_t stream_id) {
  const auto it = streams_.find(stream_id);
  if (it == streams_.end()) return;
  Stream& stream = it->second;
  std::vector<std::pair<std::string, std::string>> fields = {
      {":status", std::to_string(stream.script.status)}};
  bool has_type = false;
  for (const auto& [name, value] : stream.script.headers) {
    const std::string n = lower(name);
    if (n == "connection" || n == "transfer-encoding" || n == "keep-alive") continue;
    has_type = has_type || n == "content-type";
    fields.emplace_back(n, value);
  }
  if (!has_type) fields.emplace_back("content-type", "text/event-stream");
  std::vector<nghttp2_nv> nva;
  for (const auto& [n, v] : fields) nva.push_back(make_nv(n, v));
  nghttp2_data_provider provider{};
  provider.read_callback = &H2Session::on_read_data;
  nghttp2_submit_response(session_, stream_id, nva.data(), nva.size(), &provider);
  stream.responded = true;
  const uint64_t seq = stream.seq;
  flush();  // may close (and erase) the stream: do not touch `stream` after this
  const int64_t t = now_ns();
  shared_.log->update(seq, [t](ServedRequest& r) { r.headers_sent_ns = t; });
  next_piece(stream_id);
}

void H2Session::next_piece(int32_t stream_id) {
  const auto it = streams_.find(stream_id);
  if (it == streams_.end()) return;
  Stream& stream = it->second;
  const auto& pieces = stream.script.pieces;
  if (stream.next_piece < pieces.size()) {
    const BodyPiece& piece = pieces[stream.next_piece];
    auto append = [self = shared_from_this(), stream_id] {
      const auto found = self->streams_.find(stream_id);
      if (found == self->streams_.end()) return;
      Stream& s = found->second;
      const BodyPiece& p = s.script.pieces[s.next_piece++];
      s.pending += p.bytes;
      s.body_offset += p.bytes.size();
      s.unstamped.push_back(s.body_offset);
      nghttp2_session_resume_data(self->session_, stream_id);
      self->flush();
      self->next_piece(stream_id);
    };
    if (piece.delay_us <= 0) return append();
    stream.timer->expires_after(std::chrono::microseconds(piece.delay_us));
    stream.timer->async_wait([append](auto ec) {
      if (!ec) append();
    });
    return;
  }
  shared_.log->update(stream.seq, [](ServedRequest& r) { r.finished = true; });
  switch (stream.script.ending) {
    case Ending::Complete:
      stream.body_complete = true;
      nghttp2_session_resume_data(session_, stream_id);
      break;
    case Ending::CloseMidStream:
      nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_INTERNAL_ERROR);
      break;
    case Ending::Stall:
      break;
  }
  flush();
}

ssize_t H2Session::on_read_data(nghttp2_session*, int32_t stream_id, uint8_t* buf, size_t length,
                                uint32_t* flags, nghttp2_data_source*, void* self) {
  auto* s = static_cast<H2Session*>(self);
  const auto it = s->streams_.find(stream_id);
  if (it == s->streams_.end()) return NGHTTP2_ERR_DEFERRED;
  Stream& stream = it->second;
  const size_t n = std::min(length, stream.pending.size());
  std::memcpy(buf, stream.pending.data(), n);
  stream.pending.erase(0, n);
  stream.consumed += n;
  if (stream.pending.empty() && stream.body_complete) {
    *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }
  return n > 0 ? static_cast<ssize_t>(n) : static_cast<ssize_t>(NGHTTP2_ERR_DEFERRED);
}

void H2Session::flush() {
  if (closed_) return;
  if (writing_) {
    flush_again_ = true;
    return;
  }
  for (;;) {
    const uint8_t* data = nullptr;
    const ssize_t n = nghttp2_session_mem_send(session_, &data);
    if (n <= 0) break;
    out_.append(reinterpret_cast<const char*>(data), static_cast<size_t>(n));
  }
  if (write_start_ns_ == 0 && out_pos_ < out_.size()) write_start_ns_ = now_ns();
  while (out_pos_ < out_.size()) {
    boost::system::error_code ec;
    out_pos_ +=
        socket_.write_some(asio::buffer(out_.data() + out_pos_, out_.size() - out_pos_), ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
      writing_ = true;
      socket_.async_wait(tcp::socket::wait_write, [self = shared_from_this()](auto wec) {
        self->writing_ = false;
        if (wec) return self->close();
        self->flush();
      });
      return;
    }
    if (ec) return close();
  }
  out_.clear();
  out_pos_ = 0;
  stamp_written();
  if (flush_again_) {
    flush_again_ = false;
    flush();
  }
}

void H2Session::stamp_written() {
  const int64_t t = now_ns();
  const int64_t start = write_start_ns_ != 0 ? write_start_ns_ : t;
  write_start_ns_ = 0;
  for (const auto& [seq, end] : orphan_stamps_) {
    if (!shared_.record_sends) break;
    const size_t body_end = end;
    shared_.log->update(seq, [t, body_end, start](ServedRequest& r) {
      r.sent.push_back({body_end, t, start});
    });
  }
  orphan_stamps_.clear();
  for (auto& [id, stream] : streams_) {
    while (!stream.unstamped.empty() && stream.unstamped.front() <= stream.consumed) {
      const size_t end = stream.unstamped.front();
      stream.unstamped.pop_front();
      if (shared_.record_sends) {
        shared_.log->update(stream.seq, [t, end, start](ServedRequest& r) {
          r.sent.push_back({end, t, start});
        });
      }
    }
  }
}

void H2Session::close() {
  if (closed_) return;
  closed_ = true;
  for (auto& [id, stream] : streams_) {
    if (stream.timer) stream.timer->cancel();
  }
  boost::system::error_code ignored;
  socket_.shutdown(tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
}

}  // namespace lb::test
