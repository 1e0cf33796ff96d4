#include "core/net/printable_text.h"

namespace lb::net {
namespace {

std::string printable(std::string_view text, bool keep_line_breaks) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool line_break = c == '\n' || c == '\t';
    if ((c < 0x20 && !(keep_line_breaks && line_break)) || c == 0x7f) {
      out += '?';
    } else if (c == 0xc2 && i + 1 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      out += '?';  // a C1 control, UTF-8 encoded (U+009B is a one-character CSI)
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace

std::string printable_text(std::string_view text) { return printable(text, true); }
std::string printable_line(std::string_view text) { return printable(text, false); }

}  // namespace lb::net
