#include "wire_fixture.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace lb::test {

std::string load_fixture(const std::string& relative) {
  const std::string path =
      (!relative.empty() && relative.front() == '/') ? relative : fixture_path(relative);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read fixture " + path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::vector<std::string> split_sse_events(const std::string& bytes) {
  std::vector<std::string> pieces;
  size_t piece_start = 0;
  size_t line_start = 0;
  size_t i = 0;
  while (i < bytes.size()) {
    const char c = bytes[i];
    if (c != '\n' && c != '\r') {
      ++i;
      continue;
    }
    // CR LF is one terminator; a lone CR or LF is one too.
    const size_t term_len = (c == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n') ? 2 : 1;
    const bool blank = (i == line_start);
    i += term_len;
    line_start = i;
    if (blank) {
      pieces.push_back(bytes.substr(piece_start, i - piece_start));
      piece_start = i;
    }
  }
  if (piece_start < bytes.size()) pieces.push_back(bytes.substr(piece_start));
  return pieces;
}

std::vector<std::string> split_lines(const std::string& bytes) {
  std::vector<std::string> pieces;
  size_t start = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] == '\n') {
      pieces.push_back(bytes.substr(start, i + 1 - start));
      start = i + 1;
    }
  }
  if (start < bytes.size()) pieces.push_back(bytes.substr(start));
  return pieces;
}

std::string strip_leading_comment_lines(const std::string& bytes, char comment_prefix) {
  size_t pos = 0;
  while (pos < bytes.size() && bytes[pos] == comment_prefix) {
    const size_t nl = bytes.find('\n', pos);
    if (nl == std::string::npos) return {};
    pos = nl + 1;
  }
  return bytes.substr(pos);
}

std::string huge_sse_event(size_t payload_bytes) {
  std::string event =
      R"(data: {"id":"big","object":"chat.completion.chunk","created":1,"model":"m",)"
      R"("choices":[{"index":0,"delta":{"content":")";
  event.append(payload_bytes, 'x');
  event += R"("},"finish_reason":null}]})";
  event += "\n\n";
  return event;
}

}  // namespace lb::test
