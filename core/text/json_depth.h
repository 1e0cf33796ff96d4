#pragma once
// Whether a JSON text nests arrays and objects no deeper than a limit, found in one pass without
// parsing it: nlohmann::json parses any depth but writes values back recursively, so a value of
// some thousand levels from a file that came from elsewhere would exhaust the stack on output.
#include <string_view>

namespace lb::text {

inline bool json_depth_within(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return false;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return true;
}

}  // namespace lb::text
