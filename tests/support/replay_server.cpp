#include "replay_server.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include <boost/asio.hpp>

#include "replay_session.h"

namespace lb::test {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

std::string ServedRequest::header(const std::string& lower_name) const {
  for (const auto& [name, value] : headers) {
    if (name == lower_name) return value;
  }
  return {};
}

int64_t ServedRequest::sent_ns_for_offset(size_t offset) const {
  for (const auto& piece : sent) {
    if (offset < piece.body_end) return piece.sent_ns;
  }
  return -1;
}

// --- served-request log -----------------------------------------------------------------------

uint64_t ServedLog::add(ServedRequest request) {
  std::lock_guard lock(mutex_);
  request.seq = ++last_seq_;
  entries_.push_back(std::move(request));
  return last_seq_;
}

void ServedLog::update(uint64_t seq, const std::function<void(ServedRequest&)>& change) {
  std::lock_guard lock(mutex_);
  if (seq <= base_seq_ || seq - base_seq_ > entries_.size()) return;  // cleared meanwhile
  ServedRequest& entry = entries_[seq - base_seq_ - 1];
  change(entry);
  if (entry.finished) changed_.notify_all();
}

std::vector<ServedRequest> ServedLog::snapshot() const {
  std::lock_guard lock(mutex_);
  return {entries_.begin(), entries_.end()};
}

bool ServedLog::wait_for_finished(size_t count, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] {
    return static_cast<size_t>(std::count_if(entries_.begin(), entries_.end(),
                                             [](const auto& e) { return e.finished; })) >= count;
  });
}

void ServedLog::clear() {
  std::lock_guard lock(mutex_);
  base_seq_ = last_seq_;
  entries_.clear();
}

// --- server -----------------------------------------------------------------------------------

struct ReplayServer::Impl {
  Handler handler;
  ServerOptions options;
  asio::io_context io;
  tcp::acceptor acceptor{io};
  std::vector<std::thread> threads;
  ServedLog log;
  SessionShared shared;
  uint16_t port = 0;

  void accept() {
    acceptor.async_accept(
        asio::make_strand(io), [this](boost::system::error_code ec, tcp::socket socket) {
          if (ec) return;  // acceptor closed
          boost::system::error_code ignored;
          socket.set_option(tcp::no_delay(true), ignored);  // events must leave as they are written
          const uint64_t number = ++shared.accepted;
          std::make_shared<ReplaySession>(std::move(socket), number, shared)->start();
          accept();
        });
  }
};

ReplayServer::ReplayServer(Handler handler, ServerOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->handler = std::move(handler);
  impl_->options = options;
  impl_->shared.handler = &impl_->handler;
  impl_->shared.log = &impl_->log;
  impl_->shared.record_sends = options.record_sends;
  impl_->shared.max_request_bytes = options.max_request_bytes;

  tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.set_option(tcp::acceptor::reuse_address(true));
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen(asio::socket_base::max_listen_connections);
  impl_->port = impl_->acceptor.local_endpoint().port();
  impl_->accept();
  const int thread_count = std::max(1, options.threads);
  for (int i = 0; i < thread_count; ++i) {
    impl_->threads.emplace_back([this] { impl_->io.run(); });
  }
}

ReplayServer::~ReplayServer() {
  asio::post(impl_->io, [this] {
    boost::system::error_code ignored;
    impl_->acceptor.close(ignored);
  });
  impl_->io.stop();
  for (auto& thread : impl_->threads) thread.join();
  // Destroying the io_context destroys pending handlers, which releases (and closes) sessions.
}

uint16_t ReplayServer::port() const { return impl_->port; }
std::string ReplayServer::base_url() const {
  return "http://127.0.0.1:" + std::to_string(impl_->port);
}
std::string ReplayServer::url(const std::string& path) const { return base_url() + path; }
std::vector<ServedRequest> ReplayServer::served() const { return impl_->log.snapshot(); }
bool ReplayServer::wait_for_finished(size_t count, std::chrono::milliseconds timeout) const {
  return impl_->log.wait_for_finished(count, timeout);
}
void ReplayServer::clear_served() { impl_->log.clear(); }
size_t ReplayServer::connections_accepted() const { return impl_->shared.accepted.load(); }
size_t ReplayServer::open_connections() const { return impl_->shared.open.load(); }

// --- script builders --------------------------------------------------------------------------

ResponseScript sse_script(const std::vector<std::string>& pieces, int64_t delay_us,
                          std::string content_type) {
  ResponseScript script;
  script.headers.emplace_back("Content-Type", std::move(content_type));
  script.headers.emplace_back("Cache-Control", "no-cache");
  script.pieces.reserve(pieces.size());
  for (const auto& piece : pieces) script.pieces.push_back({piece, delay_us});
  return script;
}

ResponseScript error_script(int status, std::string body,
                            std::vector<std::pair<std::string, std::string>> headers) {
  ResponseScript script;
  script.status = status;
  script.framing = BodyFraming::ContentLength;
  script.headers = std::move(headers);
  const bool has_type = std::any_of(script.headers.begin(), script.headers.end(), [](auto& h) {
    return h.first == "Content-Type" || h.first == "content-type";
  });
  if (!has_type) script.headers.emplace_back("Content-Type", "application/json");
  script.pieces.push_back({std::move(body), 0});
  return script;
}

}  // namespace lb::test
