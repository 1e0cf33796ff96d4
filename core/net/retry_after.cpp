#include "core/net/retry_after.h"

#include <strings.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace lb::net {

namespace {

bool parse_number(const std::string& text, double& out) {
  const char* begin = text.c_str();
  while (std::isspace(static_cast<unsigned char>(*begin))) ++begin;
  if (*begin == '\0' || *begin == '-') return false;
  char* end = nullptr;
  out = std::strtod(begin, &end);
  while (end && std::isspace(static_cast<unsigned char>(*end))) ++end;
  return end && *end == '\0';
}

}  // namespace

bool parse_http_date(const std::string& text, std::chrono::system_clock::time_point& out) {
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char weekday[4] = {}, month[4] = {}, zone[4] = {};
  int day = 0, year = 0, hour = 0, minute = 0, second = 0;
  if (std::sscanf(text.c_str(), " %3s, %d %3s %d %d:%d:%d %3s", weekday, &day, month, &year, &hour,
                  &minute, &second, zone) != 8) {
    return false;
  }
  int month_index = -1;
  for (int i = 0; i < 12; ++i) {
    if (std::strcmp(month, kMonths[i]) == 0) month_index = i;
  }
  if (month_index < 0 || std::strcmp(zone, "GMT") != 0) return false;
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month_index;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  out = std::chrono::system_clock::from_time_t(timegm(&tm));
  return true;
}

double retry_after_seconds(const std::vector<std::pair<std::string, std::string>>& headers,
                           std::chrono::system_clock::time_point now) {
  const std::string* seconds_value = nullptr;
  for (const auto& [name, value] : headers) {
    double ms = 0;
    if (strcasecmp(name.c_str(), "retry-after-ms") == 0 && parse_number(value, ms)) {
      return ms / 1000.0;
    }
    if (strcasecmp(name.c_str(), "retry-after") == 0) seconds_value = &value;
  }
  if (!seconds_value) return -1;
  double seconds = 0;
  if (parse_number(*seconds_value, seconds)) return seconds;
  std::chrono::system_clock::time_point when;
  if (!parse_http_date(*seconds_value, when)) return -1;
  const double delta = std::chrono::duration<double>(when - now).count();
  return delta > 0 ? delta : 0;
}

}  // namespace lb::net
