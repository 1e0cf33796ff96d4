#include "core/logprobs/json_skip.h"

#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lb::logprobs {
namespace json_skip {

constexpr size_t kNone = std::string_view::npos;
constexpr size_t kBlock = 64;

// Scanning state carried from one block to the next.
struct State {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;  // the previous byte was an unescaped backslash inside a string
};

// Feeds one byte; returns true when it closed the container.
inline bool step(State& s, char c) {
  if (s.in_string) {
    if (s.escaped) {
      s.escaped = false;
    } else if (c == '\\') {
      s.escaped = true;
    } else if (c == '"') {
      s.in_string = false;
    }
    return false;
  }
  if (c == '"') {
    s.in_string = true;
  } else if (c == '{' || c == '[') {
    ++s.depth;
  } else if (c == '}' || c == ']') {
    return --s.depth == 0;
  }
  return false;
}

#if defined(__SSE2__)

struct Masks {
  uint64_t quote = 0;
  uint64_t backslash = 0;
  uint64_t open = 0;
  uint64_t close = 0;
};

inline uint64_t bits(__m128i v, char c) {
  return static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c))));
}

Masks classify(const char* p) {
  Masks m;
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const int shift = 16 * k;
    m.quote |= bits(v, '"') << shift;
    m.backslash |= bits(v, '\\') << shift;
    m.open |= (bits(v, '{') | bits(v, '[')) << shift;
    m.close |= (bits(v, '}') | bits(v, ']')) << shift;
  }
  return m;
}

// Bit k of the result is the XOR of bits 0..k of x: set from an opening quote up to the byte
// before its closing quote.
inline uint64_t prefix_xor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

// std::popcount is a library call on baseline x86-64 (no POPCNT instruction); this is inline.
inline int count_bits(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

// One block without a backslash. Returns the offset one past the closing bracket, or kNone.
size_t scan_block(const Masks& m, State& s) {
  uint64_t quote = m.quote;
  if (s.escaped) {  // the block's first byte is escaped by the last byte of the one before
    quote &= ~uint64_t{1};
    s.escaped = false;
  }
  const uint64_t in_string = prefix_xor(quote) ^ (s.in_string ? ~uint64_t{0} : 0);
  s.in_string = (in_string >> 63) != 0;
  const uint64_t open = m.open & ~in_string;
  const uint64_t close = m.close & ~in_string;
  const int closes = count_bits(close);
  if (closes < s.depth) {  // cannot get back to depth 0 in this block
    s.depth += count_bits(open) - closes;
    return kNone;
  }
  for (uint64_t brackets = open | close; brackets != 0; brackets &= brackets - 1) {
    const int k = std::countr_zero(brackets);
    if ((open >> k) & 1) {
      ++s.depth;
    } else if (--s.depth == 0) {
      return static_cast<size_t>(k) + 1;
    }
  }
  return kNone;
}

#endif

}  // namespace json_skip

using json_skip::kBlock;
using json_skip::State;

size_t skip_container_bytewise(std::string_view d, size_t i) {
  State s;
  for (; i < d.size(); ++i) {
    if (json_skip::step(s, d[i])) return i + 1;
  }
  return json_skip::kNone;
}

size_t skip_container(std::string_view d, size_t i) {
#if defined(__SSE2__)
  State s;
  char tail[kBlock];
  for (size_t pos = i; pos < d.size(); pos += kBlock) {
    const size_t len = d.size() - pos < kBlock ? d.size() - pos : kBlock;
    const char* p = d.data() + pos;
    if (len < kBlock) {  // zeros are none of the bytes looked for
      std::memset(tail, 0, kBlock);
      std::memcpy(tail, p, len);
      p = tail;
    }
    const json_skip::Masks m = json_skip::classify(p);
    if (m.backslash != 0) {
      for (size_t k = 0; k < len; ++k) {
        if (json_skip::step(s, p[k])) return pos + k + 1;
      }
      continue;
    }
    if (const size_t end = json_skip::scan_block(m, s); end != json_skip::kNone) return pos + end;
  }
  return json_skip::kNone;
#else
  return skip_container_bytewise(d, i);
#endif
}

}  // namespace lb::logprobs
