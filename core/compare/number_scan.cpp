#include "core/compare/number_scan.h"

#include <cctype>
#include <charconv>

namespace lb::compare {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

std::size_t digits_end(std::string_view s, std::size_t i) {
  while (i < s.size() && is_digit(s[i])) ++i;
  return i;
}

// Thousands groups ",ddd" after a first group of 1-3 digits; a comma followed by anything else
// (a list "1,2,3" or "1, 2") ends the number.
std::size_t grouped_end(std::string_view s, std::size_t start, std::size_t first_end) {
  if (first_end - start > 3) return first_end;
  std::size_t i = first_end;
  while (i + 3 < s.size() && s[i] == ',' && is_digit(s[i + 1]) && is_digit(s[i + 2]) &&
         is_digit(s[i + 3]) && (i + 4 >= s.size() || !is_digit(s[i + 4]))) {
    i += 4;
  }
  return i;
}

std::size_t number_end(std::string_view s, std::size_t start) {
  std::size_t i = grouped_end(s, start, digits_end(s, start));
  if (i + 1 < s.size() && s[i] == '.' && is_digit(s[i + 1])) i = digits_end(s, i + 1);
  if (i + 1 < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t k = i + 1;
    if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
    // "3e5" is an exponent; "3em" or "2eggs" is not.
    if (k < s.size() && is_digit(s[k])) {
      const std::size_t e = digits_end(s, k);
      if (e >= s.size() || !std::isalpha(static_cast<unsigned char>(s[e]))) i = e;
    }
  }
  return i;
}

}  // namespace

std::vector<NumberToken> scan_numbers(std::string_view s) {
  std::vector<NumberToken> out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (!is_digit(s[i])) {
      ++i;
      continue;
    }
    std::size_t begin = i;
    // A sign belongs to the number only when it is not a binary operator ("3-2").
    if (begin > 0 && (s[begin - 1] == '-' || s[begin - 1] == '+') &&
        (begin == 1 || !is_alnum(s[begin - 2]))) {
      --begin;
    }
    const std::size_t end = number_end(s, i);
    NumberToken token;
    token.begin = begin;
    token.end = end;
    token.text = std::string(s.substr(begin, end - begin));
    for (char c : token.text) {
      if (c != ',') token.canonical.push_back(c);
    }
    if (!token.canonical.empty() && token.canonical.front() == '+') token.canonical.erase(0, 1);
    const char* first = token.canonical.data();
    std::from_chars(first, first + token.canonical.size(), token.value);
    out.push_back(std::move(token));
    i = end;
  }
  return out;
}

}  // namespace lb::compare
