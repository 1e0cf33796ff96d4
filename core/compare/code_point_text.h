#pragma once
// A UTF-8 string seen as Python's str sees it: a sequence of Unicode code points (astral-plane
// characters such as emoji are one element, not two UTF-16 units or four bytes). Keeps, for every
// code point index, the offset in UTF-8 bytes (for HTML) and in UTF-16 units (for QString).
//
// Bytes that are not valid UTF-8 become one code point each, U+DC80 + byte (Python's
// "surrogateescape"), so no input is rejected and distinct bytes stay distinct.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lb::compare {

std::u32string decode_utf8(std::string_view utf8);
std::string encode_utf8(std::u32string_view code_points);

class CodePointText {
 public:
  CodePointText() = default;
  explicit CodePointText(std::string_view utf8);

  const std::string& utf8() const { return utf8_; }
  const std::u32string& code_points() const { return code_points_; }
  std::size_t size() const { return code_points_.size(); }
  // Offsets of code point index cp, for cp in [0, size()] (size() maps to the end).
  std::size_t utf8_offset(std::size_t cp) const { return utf8_offsets_[cp]; }
  std::size_t utf16_offset(std::size_t cp) const { return utf16_offsets_[cp]; }
  std::size_t utf16_size() const { return utf16_offsets_.back(); }

 private:
  std::string utf8_;
  std::u32string code_points_;
  std::vector<uint32_t> utf8_offsets_{0};
  std::vector<uint32_t> utf16_offsets_{0};
};

}  // namespace lb::compare
