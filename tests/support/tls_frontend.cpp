#include "tls_frontend.h"

#include <array>
#include <atomic>
#include <string_view>
#include <thread>
#include <utility>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>

namespace lb::test {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = asio::ip::tcp;

namespace {

// One client connection: TLS on the outside, plain TCP to the backend, bytes copied both ways.
class Pipe : public std::enable_shared_from_this<Pipe> {
 public:
  Pipe(tcp::socket client, ssl::context& context, uint16_t backend_port,
       std::atomic<size_t>& failed)
      : tls_(std::move(client), context),
        backend_(tls_.get_executor()),
        backend_port_(backend_port),
        failed_(failed) {}

  void start() {
    tls_.async_handshake(ssl::stream_base::server, [self = shared_from_this()](auto ec) {
      if (ec) {
        ++self->failed_;
        return self->close();
      }
      tcp::endpoint backend(asio::ip::make_address("127.0.0.1"), self->backend_port_);
      self->backend_.async_connect(backend, [self](auto cec) {
        if (cec) return self->close();
        boost::system::error_code ignored;
        self->backend_.set_option(tcp::no_delay(true), ignored);
        self->client_to_backend();
        self->backend_to_client();
      });
    });
  }

 private:
  void client_to_backend() {
    tls_.async_read_some(asio::buffer(up_), [self = shared_from_this()](auto ec, size_t n) {
      if (ec) return self->close();
      asio::async_write(self->backend_, asio::buffer(self->up_, n), [self](auto wec, size_t) {
        if (wec) return self->close();
        self->client_to_backend();
      });
    });
  }

  void backend_to_client() {
    backend_.async_read_some(asio::buffer(down_), [self = shared_from_this()](auto ec, size_t n) {
      if (ec) return self->close();
      asio::async_write(self->tls_, asio::buffer(self->down_, n), [self](auto wec, size_t) {
        if (wec) return self->close();
        self->backend_to_client();
      });
    });
  }

  void close() {
    boost::system::error_code ignored;
    backend_.close(ignored);
    tls_.lowest_layer().close(ignored);
  }

  ssl::stream<tcp::socket> tls_;
  tcp::socket backend_;
  uint16_t backend_port_;
  std::atomic<size_t>& failed_;
  std::array<char, 64 * 1024> up_{};
  std::array<char, 64 * 1024> down_{};
};

}  // namespace

struct TlsFrontend::Impl {
  asio::io_context io;
  ssl::context context{ssl::context::tls_server};
  tcp::acceptor acceptor{io};
  uint16_t backend_port = 0;
  bool offer_h2 = false;
  std::atomic<size_t> failed{0};
  std::thread thread;

  void accept() {
    acceptor.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
      if (ec) return;
      std::make_shared<Pipe>(std::move(socket), context, backend_port, failed)->start();
      accept();
    });
  }
};

namespace {

int select_alpn(SSL*, const unsigned char** out, unsigned char* out_len, const unsigned char* in,
                unsigned int in_len, void* offer_h2) {
  // `in` is a list of length-prefixed protocol names, in the client's order of preference.
  const bool h2_allowed = *static_cast<bool*>(offer_h2);
  for (const char* wanted : {"h2", "http/1.1"}) {
    if (!h2_allowed && std::string_view(wanted) == "h2") continue;
    for (unsigned int i = 0; i < in_len; i += 1 + in[i]) {
      if (std::string_view(reinterpret_cast<const char*>(in + i + 1), in[i]) == wanted) {
        *out = in + i + 1;
        *out_len = in[i];
        return SSL_TLSEXT_ERR_OK;
      }
    }
  }
  return SSL_TLSEXT_ERR_NOACK;
}

}  // namespace

TlsFrontend::TlsFrontend(uint16_t backend_port, const TestCertificate& certificate, bool offer_h2)
    : impl_(std::make_unique<Impl>()) {
  impl_->backend_port = backend_port;
  impl_->offer_h2 = offer_h2;
  SSL_CTX_set_alpn_select_cb(impl_->context.native_handle(), &select_alpn, &impl_->offer_h2);
  impl_->context.use_certificate_chain_file(certificate.cert_path);
  impl_->context.use_private_key_file(certificate.key_path, ssl::context::pem);
  tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen();
  impl_->accept();
  impl_->thread = std::thread([this] { impl_->io.run(); });
}

TlsFrontend::~TlsFrontend() {
  impl_->io.stop();
  impl_->thread.join();
}

uint16_t TlsFrontend::port() const { return impl_->acceptor.local_endpoint().port(); }
size_t TlsFrontend::handshakes_failed() const { return impl_->failed.load(); }

}  // namespace lb::test
