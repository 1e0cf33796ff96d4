#include "core/files/safe_file_name.h"

#include <cstdint>

namespace lb::files {
namespace {

constexpr size_t kHashChars = 12;  // 48 bits: two names meet by chance once in 2^24 pairs
constexpr size_t kSuffixBytes = 1 + kHashChars;

// The length of the valid, shortest-form UTF-8 sequence at s[i] (its code point in *cp), or 0.
size_t utf8_sequence(std::string_view s, size_t i, char32_t* cp) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return *cp = b0, 1;
  const size_t n = b0 >= 0xF0 && b0 <= 0xF4 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC2 ? 2 : 0;
  if (n == 0 || b0 >= 0xF5 || i + n > s.size()) return 0;
  char32_t c = b0 & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    c = (c << 6) | (b & 0x3F);
  }
  const bool shortest = (n == 2) || (n == 3 && c >= 0x800) || (n == 4 && c >= 0x10000);
  if (!shortest || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  return *cp = c, n;
}

// Letters and digits of any script, '-', '_', '.' and ':' (imported lanes are "imported:NAME");
// no separator, control character, or
// character that reorders or hides text when the name is shown.
bool allowed(char32_t c) {
  if (c == '~') return false;  // marks a changed name
  if (c < 0x80)
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
           c == '_' || c == '.' || c == ':';
  if (c < 0xA0 || c == 0xFEFF) return false;
  if ((c >= 0x200B && c <= 0x200F) || (c >= 0x2028 && c <= 0x202E)) return false;
  return !(c >= 0x2066 && c <= 0x2069);
}

bool plain_safe(std::string_view s) {
  if (s.empty() || s.size() > kSafeFileNameMaxBytes || s[0] == '.') return false;
  for (size_t i = 0; i < s.size();) {
    char32_t c = 0;
    const size_t n = utf8_sequence(s, i, &c);
    if (n == 0 || !allowed(c)) return false;
    i += n;
  }
  return true;
}

bool is_hash(std::string_view s) {
  if (s.size() != kHashChars) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

uint64_t fnv1a(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

// NAME with each character that is not allowed (or byte that is not UTF-8) as '_', cut to
// MAX_BYTES between two characters.
std::string mapped(std::string_view name, size_t max_bytes) {
  std::string out;
  for (size_t i = 0; i < name.size();) {
    char32_t c = 0;
    const size_t n = utf8_sequence(name, i, &c);
    const bool keep = n > 0 && allowed(c);
    const size_t add = keep ? n : 1;
    if (out.size() + add > max_bytes) break;
    out.append(keep ? name.substr(i, n) : std::string_view("_"));
    i += n > 0 ? n : 1;
  }
  if (out.empty()) out = "_";
  if (out[0] == '.') out[0] = '_';
  return out;
}

}  // namespace

bool is_safe_file_name(std::string_view name) { return plain_safe(name); }

bool is_confined_file_name(std::string_view name) {
  if (plain_safe(name)) return true;
  // A name safe_file_name changed: a plain safe stem, '~', and the hash of the original.
  if (name.size() <= kSuffixBytes || name.size() > kSafeFileNameMaxBytes) return false;
  const size_t at = name.size() - kSuffixBytes;
  return name[at] == '~' && is_hash(name.substr(at + 1)) && plain_safe(name.substr(0, at));
}

std::string safe_file_name(std::string_view name) {
  if (plain_safe(name)) return std::string(name);
  static constexpr char kHex[] = "0123456789abcdef";
  uint64_t h = fnv1a(name);
  std::string suffix(kSuffixBytes, '~');
  for (size_t k = kSuffixBytes - 1; k >= 1; --k, h >>= 4) suffix[k] = kHex[h & 0xF];
  return mapped(name, kSafeFileNameMaxBytes - kSuffixBytes) + suffix;
}

}  // namespace lb::files
