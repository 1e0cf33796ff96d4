#include "core/net/ndjson_framer.h"

#include <cstring>

namespace lb::net {

NdjsonFramer::NdjsonFramer(size_t max_line_bytes, Sink sink)
    : max_line_bytes_(max_line_bytes), sink_(std::move(sink)) {}

bool NdjsonFramer::feed(std::string_view bytes) {
  if (failed_) return false;
  size_t pos = 0;
  while (pos < bytes.size()) {
    const void* nl = std::memchr(bytes.data() + pos, '\n', bytes.size() - pos);
    const size_t end = nl ? static_cast<const char*>(nl) - bytes.data() : bytes.size();
    if (line_.size() + (end - pos) > max_line_bytes_) {
      failed_ = true;
      error_ = "NDJSON line larger than the limit of " + std::to_string(max_line_bytes_) + " bytes";
      line_.clear();
      return false;
    }
    if (!nl) {
      line_.append(bytes.data() + pos, end - pos);
      break;
    }
    if (line_.empty()) {
      dispatch_line(bytes.substr(pos, end - pos));
    } else {
      line_.append(bytes.data() + pos, end - pos);
      dispatch_line(line_);
      line_.clear();
    }
    pos = end + 1;
  }
  return true;
}

bool NdjsonFramer::finish() {
  if (failed_ || line_.empty()) return false;
  std::string last;
  last.swap(line_);
  dispatch_line(last);
  return true;
}

void NdjsonFramer::dispatch_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos) return;
  sink_(line);
}

}  // namespace lb::net
