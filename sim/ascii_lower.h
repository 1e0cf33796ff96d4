// ASCII lower-casing for matching request text (keys, needles) without locale effects.
#pragma once

#include <cctype>
#include <string>

namespace lb::sim {

inline std::string ascii_lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace lb::sim
