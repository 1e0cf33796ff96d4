#include "core/compare/code_point_text.h"

namespace lb::compare {
namespace {

constexpr char32_t kEscapeBase = 0xDC00;

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not valid (overlong forms,
// surrogates and values above U+10FFFF are invalid, as in Python's strict decoder).
std::size_t valid_sequence(std::string_view s, std::size_t i, char32_t& cp) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char b0 = byte(0);
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  }
  std::size_t len = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    cp = b0 & 0x0F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    cp = b0 & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(k) & 0x3F);
  }
  if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;
  return len;
}

template <typename Visit>
void for_each_code_point(std::string_view utf8, Visit visit) {
  std::size_t i = 0;
  while (i < utf8.size()) {
    char32_t cp = 0;
    std::size_t len = valid_sequence(utf8, i, cp);
    if (len == 0) {
      cp = kEscapeBase + static_cast<unsigned char>(utf8[i]);
      len = 1;
    }
    visit(cp, len);
    i += len;
  }
}

}  // namespace

std::u32string decode_utf8(std::string_view utf8) {
  std::u32string out;
  out.reserve(utf8.size());
  for_each_code_point(utf8, [&](char32_t cp, std::size_t) { out.push_back(cp); });
  return out;
}

std::string encode_utf8(std::u32string_view code_points) {
  std::string out;
  out.reserve(code_points.size());
  for (char32_t cp : code_points) {
    if (cp >= 0xDC80 && cp <= 0xDCFF) {  // an escaped invalid byte goes back as that byte
      out.push_back(static_cast<char>(cp - kEscapeBase));
    } else if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }
  return out;
}

CodePointText::CodePointText(std::string_view utf8) : utf8_(utf8) {
  code_points_.reserve(utf8.size());
  utf8_offsets_.reserve(utf8.size() + 1);
  utf16_offsets_.reserve(utf8.size() + 1);
  uint32_t bytes = 0;
  uint32_t units = 0;
  for_each_code_point(utf8, [&](char32_t cp, std::size_t len) {
    code_points_.push_back(cp);
    bytes += static_cast<uint32_t>(len);
    units += cp >= 0x10000 ? 2 : 1;
    utf8_offsets_.push_back(bytes);
    utf16_offsets_.push_back(units);
  });
}

}  // namespace lb::compare
