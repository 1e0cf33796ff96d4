#pragma once
// A plain blocking HTTP/1.1 client for the simulator's tests (Boost.Beast), independent of the
// engine's own client. Each chunk of a chunked response is kept with its arrival time, so a test
// can compare event times with the simulator's trace.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
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

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

// One keep-alive connection to 127.0.0.1:port; throws when it cannot connect.
class HttpConnection {
 public:
  explicit HttpConnection(uint16_t port);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  HttpResult request(const std::string& method, const std::string& target,
                     const std::string& body = "", const HttpHeaders& headers = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One request on a new connection; a connection failure comes back in HttpResult::error.
HttpResult http_request(uint16_t port, const std::string& method, const std::string& target,
                        const std::string& body = "", const HttpHeaders& headers = {});

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
