#pragma once
// NdjsonFramer splits a newline-delimited JSON stream (Ollama's native API) into lines. A line
// ends at LF; a CR before it is dropped; blank lines are skipped. Like SseFramer it buffers raw
// bytes, so a read may end anywhere, and it fails cleanly when a line exceeds the size limit.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace lb::net {

class NdjsonFramer {
 public:
  using Sink = std::function<void(std::string_view line)>;

  NdjsonFramer(size_t max_line_bytes, Sink sink);
  bool feed(std::string_view bytes);  // false once a line exceeded the limit
  bool finish();                      // dispatches a final line without '\n'; true if it did

  bool failed() const { return failed_; }
  const std::string& error() const { return error_; }
  size_t pending_bytes() const { return line_.size(); }

 private:
  void dispatch_line(std::string_view line);

  size_t max_line_bytes_;
  Sink sink_;
  std::string line_;
  bool failed_ = false;
  std::string error_;
};

}  // namespace lb::net
