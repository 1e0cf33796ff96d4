#include "server.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <optional>
#include <stdexcept>
#include <thread>

#include "http_session.h"
#include "server_core.h"

namespace lb::sim {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

struct Server::Impl {
  SimConfig config;
  // Declared first so it is destroyed last: sockets and timers must go before their io_context.
  asio::io_context io{1};
  std::optional<tcp::acceptor> acceptor;
  std::unique_ptr<ServerCore> core;
  std::thread thread;
  uint16_t port = 0;
  bool running = false;

  // One connection per completion would wait behind every other ready handler of the loop (each
  // stream's reads, writes and timers) between two accepts: with thousands of streams open, a
  // burst of new connections filled the listen queue and its clients waited seconds. Each
  // completion therefore also takes what else is queued, up to kAcceptBatch, without blocking.
  static constexpr int kAcceptBatch = 256;

  void start_session(tcp::socket socket) {
    std::make_shared<HttpSession>(std::move(socket), *core, &core->trace())->start();
  }

  void accept() {
    acceptor->async_accept([this](boost::system::error_code ec, tcp::socket socket) {
      if (ec) return;  // acceptor closed
      start_session(std::move(socket));
      for (int i = 1; i < kAcceptBatch; ++i) {
        tcp::socket next(io);
        acceptor->accept(next, ec);  // non-blocking: would_block once the queue is empty
        if (ec) break;
        start_session(std::move(next));
      }
      accept();
    });
  }
};

Server::Server(SimConfig config) : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
}

Server::~Server() {
  stop();
  impl_->core.reset();
}

uint16_t Server::start(uint16_t port) {
  if (impl_->running) return impl_->port;
  impl_->core = std::make_unique<ServerCore>(impl_->io, impl_->config);
  if (!impl_->core->trace().ok()) {
    throw std::runtime_error("cannot open trace file " + impl_->config.trace_path);
  }
  const auto address = asio::ip::make_address(impl_->config.host);
  impl_->acceptor.emplace(impl_->io);
  tcp::endpoint endpoint(address, port);
  impl_->acceptor->open(endpoint.protocol());
  impl_->acceptor->set_option(asio::socket_base::reuse_address(true));
  boost::system::error_code ec;
  impl_->acceptor->bind(endpoint, ec);
  if (ec) {
    throw std::runtime_error("cannot bind " + impl_->config.host + ":" + std::to_string(port) +
                             ": " + ec.message());
  }
  impl_->acceptor->listen(asio::socket_base::max_listen_connections);
  impl_->acceptor->non_blocking(true);
  impl_->port = impl_->acceptor->local_endpoint().port();
  impl_->accept();
  impl_->running = true;
  impl_->thread = std::thread([this] { impl_->io.run(); });
  return impl_->port;
}

void Server::stop() {
  if (!impl_->running) return;
  impl_->running = false;
  asio::post(impl_->io, [this] {
    boost::system::error_code ignored;
    impl_->acceptor->close(ignored);
    impl_->io.stop();
  });
  if (impl_->thread.joinable()) impl_->thread.join();
  impl_->core->trace().flush();
}

bool Server::running() const { return impl_->running; }
uint16_t Server::port() const { return impl_->port; }
std::string Server::base_url() const {
  return "http://" + impl_->config.host + ":" + std::to_string(impl_->port) + "/v1";
}
const SimConfig& Server::config() const { return impl_->config; }

}  // namespace lb::sim
