#pragma once
// A plain blocking HTTP/1.1 client for the simulator's tests (Boost.Beast), independent of the
// engine's own client. Each chunk of a chunked response is kept with its arrival time, so a test
// can compare event times with the simulator's trace.
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lb::sim::test {

struct HttpResult {
  int status = 0;
  std::map<std::string, std::string> headers;           // lower-case names
  std::string body;                                     // chunks joined
  std::vector<std::pair<int64_t, std::string>> chunks;  // steady ns at arrival, chunk data
  bool complete = false;  // message ended properly (last chunk / full length)
  std::string error;
  int64_t sent_ns = 0;
};

inline int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

class HttpConnection {
 public:
  explicit HttpConnection(uint16_t port) : socket_(io_) {
    boost::asio::ip::tcp::endpoint ep(boost::asio::ip::make_address("127.0.0.1"), port);
    socket_.connect(ep);
    socket_.set_option(boost::asio::ip::tcp::no_delay(true));
  }

  HttpResult request(const std::string& method, const std::string& target,
                     const std::string& body = "",
                     const std::vector<std::pair<std::string, std::string>>& headers = {}) {
    namespace http = boost::beast::http;
    HttpResult out;
    http::request<http::string_body> req{http::string_to_verb(method), target, 11};
    req.set(http::field::host, "127.0.0.1");
    if (!body.empty()) req.set(http::field::content_type, "application/json");
    for (const auto& [k, v] : headers) req.set(k, v);
    req.body() = body;
    req.prepare_payload();
    out.sent_ns = now_ns();
    boost::beast::error_code ec;
    http::write(socket_, req, ec);
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
    http::read(socket_, buffer_, parser, ec);
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

 private:
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
  boost::beast::flat_buffer buffer_;
};

inline HttpResult http_request(
    uint16_t port, const std::string& method, const std::string& target,
    const std::string& body = "",
    const std::vector<std::pair<std::string, std::string>>& headers = {}) {
  try {
    HttpConnection c(port);
    return c.request(method, target, body, headers);
  } catch (const std::exception& e) {
    HttpResult r;
    r.error = e.what();
    return r;
  }
}

// SSE "data:" payloads of a body, in order.
inline std::vector<std::string> sse_data(const std::string& body) {
  std::vector<std::string> out;
  size_t pos = 0;
  while ((pos = body.find("data: ", pos)) != std::string::npos) {
    const size_t end = body.find("\n\n", pos);
    out.push_back(body.substr(pos + 6, end - pos - 6));
    pos = end == std::string::npos ? body.size() : end + 2;
  }
  return out;
}

}  // namespace lb::sim::test
