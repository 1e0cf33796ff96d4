// safe_file_name on arbitrary bytes, split in two at the first byte's value: every result is one
// path component that cannot leave its folder (non-empty, bounded, valid UTF-8, no separator,
// NUL or control character, never "." or ".." or hidden), a safe name maps to itself and only a
// safe name does, and two different names never map to one.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/files/safe_file_name.h"
#include "split_input.h"

namespace {

using lb::files::safe_file_name;

bool valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const size_t n = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}

void check_one(std::string_view name) {
  const std::string safe = safe_file_name(name);
  if (safe.empty() || safe.size() > lb::files::kSafeFileNameMaxBytes)
    lb::fuzz::invariant_failed("a safe name is empty or too long");
  if (safe == "." || safe == ".." || safe[0] == '.')
    lb::fuzz::invariant_failed("a safe name is '.', '..' or hidden");
  for (unsigned char c : safe)
    if (c < 0x20 || c == 0x7F || c == '/' || c == '\\')
      lb::fuzz::invariant_failed("a safe name holds a separator or control character");
  if (!valid_utf8(safe)) lb::fuzz::invariant_failed("a safe name is not UTF-8");
  if (!lb::files::is_confined_file_name(safe))
    lb::fuzz::invariant_failed("a result is not a name safe_file_name returns");
  if (lb::files::is_safe_file_name(name) != (safe == name))
    lb::fuzz::invariant_failed("a safe name was changed, or an unsafe one kept");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  const size_t cut = std::min<size_t>(data[0], body.size());
  const std::string_view a = body.substr(0, cut), b = body.substr(cut);
  check_one(a);
  check_one(b);
  if (a != b && safe_file_name(a) == safe_file_name(b))
    lb::fuzz::invariant_failed("two different names map to one file name");
  return 0;
}
