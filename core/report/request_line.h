#pragma once
// One requests.jsonl line read into a RequestPoint. The parser is simdjson's on-demand parser:
// only the fields the charts and tables use are decoded, everything else is skipped unread, which
// is what lets a run of a million requests reopen in seconds.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/report/run_folder.h"

namespace lb::report {

// Reusable per thread (it keeps its buffers between lines).
class RequestLineParser {
 public:
  RequestLineParser();
  ~RequestLineParser();
  RequestLineParser(const RequestLineParser&) = delete;
  RequestLineParser& operator=(const RequestLineParser&) = delete;

  // LINE is SIZE bytes, and READABLE >= SIZE + request_line_padding() bytes from LINE may be
  // read (they need not belong to the line). nullopt, with PROBLEM set to "is incomplete or not
  // JSON" or "has fields of the wrong type", when the line is not a request record.
  std::optional<RequestPoint> parse(const char* line, size_t size, size_t readable,
                                    std::string* problem);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The bytes the parser may read past a line's end.
size_t request_line_padding();

// One line from any string (copied into a padded buffer): for tests and fuzzing.
std::optional<RequestPoint> parse_request_line(std::string_view line, std::string* problem);

}  // namespace lb::report
