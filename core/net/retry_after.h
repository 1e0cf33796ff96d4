#pragma once
// Retry-After as servers send it with 429 and 503: `retry-after-ms` (milliseconds, preferred
// because it is the more precise), `Retry-After` in seconds (integer or decimal), or an
// HTTP-date. The result is seconds from `now`; negative when absent or unparseable.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace lb::net {

double retry_after_seconds(const std::vector<std::pair<std::string, std::string>>& headers,
                           std::chrono::system_clock::time_point now);

// Parses an IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"); false if it is not one.
bool parse_http_date(const std::string& text, std::chrono::system_clock::time_point& out);

}  // namespace lb::net
