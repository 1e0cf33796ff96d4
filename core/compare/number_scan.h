#pragma once
// Numbers as written in model output: optional sign, digits with optional thousands separators
// ("1,725"), decimals, exponent. Used by the numeric fact check and by triage's changed numbers.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lb::compare {

struct NumberToken {
  std::size_t begin = 0;  // byte offsets into the scanned text
  std::size_t end = 0;
  std::string text;       // as written
  std::string canonical;  // separators and a leading '+' removed: equal value text compares equal
  double value = 0;
};

std::vector<NumberToken> scan_numbers(std::string_view text);

}  // namespace lb::compare
