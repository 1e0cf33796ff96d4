#include "sim_http_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cctype>
#include <exception>

namespace lb::sim::test {

namespace http = boost::beast::http;

struct HttpConnection::Impl {
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket socket{io};
  boost::beast::flat_buffer buffer;
};

HttpConnection::HttpConnection(uint16_t port) : impl_(std::make_unique<Impl>()) {
  boost::asio::ip::tcp::endpoint ep(boost::asio::ip::make_address("127.0.0.1"), port);
  impl_->socket.connect(ep);
  impl_->socket.set_option(boost::asio::ip::tcp::no_delay(true));
}

HttpConnection::~HttpConnection() = default;

HttpResult HttpConnection::request(const std::string& method, const std::string& target,
                                   const std::string& body, const HttpHeaders& headers) {
  HttpResult out;
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!body.empty()) req.set(http::field::content_type, "application/json");
  for (const auto& [k, v] : headers) req.set(k, v);
  req.body() = body;
  req.prepare_payload();
  out.sent_ns = now_ns();
  boost::beast::error_code ec;
  http::write(impl_->socket, req, ec);
  if (ec) return out.error = ec.message(), out;
  http::response_parser<http::string_body> parser;
  parser.body_limit(1ULL << 30);
  std::string current;
  auto on_header = [&](std::uint64_t, boost::string_view, boost::beast::error_code&) {
    current.clear();
  };
  auto on_body = [&](std::uint64_t remain, boost::string_view data,
                     boost::beast::error_code&) -> std::size_t {
    current.append(data.data(), data.size());
    if (remain == data.size()) out.chunks.emplace_back(now_ns(), current);
    return data.size();
  };
  parser.on_chunk_header(on_header);
  parser.on_chunk_body(on_body);
  http::read(impl_->socket, impl_->buffer, parser, ec);
  if (ec) out.error = ec.message();
  out.complete = !ec && parser.is_done();
  if (parser.is_header_done()) {
    const auto& msg = parser.get();
    out.status = static_cast<int>(msg.result_int());
    for (const auto& f : msg) {
      std::string name(f.name_string());
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      out.headers[name] = std::string(f.value());
    }
    out.body = msg.body();
    // Chunk callbacks consume the chunked body: rebuild it from the chunks.
    if (out.body.empty()) {
      for (const auto& c : out.chunks) out.body += c.second;
    }
  }
  return out;
}

HttpResult http_request(uint16_t port, const std::string& method, const std::string& target,
                        const std::string& body, const HttpHeaders& headers) {
  try {
    HttpConnection c(port);
    return c.request(method, target, body, headers);
  } catch (const std::exception& e) {
    HttpResult r;
    r.error = e.what();
    return r;
  }
}

}  // namespace lb::sim::test
