#pragma once
// The HTTP Date header's IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT", RFC 9110 5.6.7), written
// and read without the C library's locale: a workbench process may have set one.
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "core/text/civil_date.h"

namespace lb::text {

namespace http_date_detail {

constexpr std::array<const char*, 7> kDays = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

inline std::optional<int64_t> digits(std::string_view text, size_t at, size_t n) {
  if (at + n > text.size()) return std::nullopt;
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data() + at, text.data() + at + n, v);
  if (ec != std::errc() || end != text.data() + at + n) return std::nullopt;
  return v;
}

}  // namespace http_date_detail

inline std::string http_date(int64_t unix_s) {
  const int64_t days = unix_s >= 0 ? unix_s / 86400 : (unix_s - 86399) / 86400;
  const int64_t secs = unix_s - days * 86400;
  int64_t y = 0, m = 0, d = 0;
  civil_from_days(days, y, m, d);
  const int64_t weekday = ((days % 7) + 11) % 7;  // 1970-01-01 was a Thursday
  char out[40];
  std::snprintf(out, sizeof out, "%s, %02d %s %04d %02d:%02d:%02d GMT",
                http_date_detail::kDays[static_cast<size_t>(weekday)], static_cast<int>(d),
                http_date_detail::kMonths[static_cast<size_t>(m - 1)], static_cast<int>(y),
                static_cast<int>(secs / 3600), static_cast<int>(secs / 60 % 60),
                static_cast<int>(secs % 60));
  return out;
}

inline std::optional<int64_t> parse_http_date(std::string_view t) {
  // "Sun, 06 Nov 1994 08:49:37 GMT": 29 characters at fixed places.
  if (t.size() != 29 || t.substr(3, 2) != ", " || t[7] != ' ' || t[11] != ' ' || t[16] != ' ' ||
      t[19] != ':' || t[22] != ':' || t.substr(25) != " GMT")
    return std::nullopt;
  int64_t month = 0;
  for (size_t i = 0; i < http_date_detail::kMonths.size(); ++i)
    if (t.substr(8, 3) == http_date_detail::kMonths[i]) month = static_cast<int64_t>(i) + 1;
  const auto day = http_date_detail::digits(t, 5, 2), year = http_date_detail::digits(t, 12, 4),
             hh = http_date_detail::digits(t, 17, 2), mm = http_date_detail::digits(t, 20, 2),
             ss = http_date_detail::digits(t, 23, 2);
  if (month == 0 || !day || !year || !hh || !mm || !ss || *day < 1 || *day > 31 || *hh > 23 ||
      *mm > 59 || *ss > 60)
    return std::nullopt;
  return days_from_civil(*year, month, *day) * 86400 + *hh * 3600 + *mm * 60 + *ss;
}

}  // namespace lb::text
