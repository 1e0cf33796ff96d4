#pragma once
// ASCII text helpers for matching what servers, files and users write (error texts, header names,
// file extensions, keys) without locale effects: bytes outside A-Z are left as they are.
#include <string>
#include <string_view>

namespace lb::text {

inline char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

inline std::string ascii_lower(std::string s) {
  for (char& c : s) c = ascii_lower(c);
  return s;
}

// Whether `text` contains `needle`, ignoring ASCII case.
inline bool contains_ascii_nocase(std::string_view text, std::string_view needle) {
  if (needle.empty()) return true;
  for (size_t i = 0; i + needle.size() <= text.size(); ++i) {
    size_t k = 0;
    while (k < needle.size() && ascii_lower(text[i + k]) == ascii_lower(needle[k])) ++k;
    if (k == needle.size()) return true;
  }
  return false;
}

}  // namespace lb::text
