#pragma once
// Fuzz input layout shared by the framing targets: byte 0 = n (low 4 bits), the next n bytes are
// chunk lengths (0 means 1) used in turn, cycling, to cut the rest into reads. n = 0 means one
// read. This lets the fuzzer choose read boundaries (inside a CRLF, a UTF-8 character, a JSON
// string) while the body stays a plain byte string a seed file can hold.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace lb::fuzz {

struct SplitInput {
  std::vector<size_t> chunk_bytes;  // empty = the whole body in one read
  std::string_view body;
};

inline SplitInput split_input(const uint8_t* data, size_t size) {
  SplitInput in;
  if (size == 0) return in;
  size_t n = data[0] & 0x0f;
  if (n > size - 1) n = size - 1;
  for (size_t i = 0; i < n; ++i) in.chunk_bytes.push_back(data[1 + i] == 0 ? 1 : data[1 + i]);
  in.body = std::string_view(reinterpret_cast<const char*>(data) + 1 + n, size - 1 - n);
  return in;
}

// The body cut at the chosen boundaries.
inline std::vector<std::string_view> chunks_of(const SplitInput& in) {
  std::vector<std::string_view> out;
  if (in.chunk_bytes.empty()) {
    out.push_back(in.body);
    return out;
  }
  size_t pos = 0;
  for (size_t i = 0; pos < in.body.size(); ++i) {
    const size_t len = in.chunk_bytes[i % in.chunk_bytes.size()];
    out.push_back(in.body.substr(pos, len));
    pos += len;
  }
  return out;
}

// Aborts with a message, so libFuzzer saves the input as a crash reproducer.
[[noreturn]] inline void invariant_failed(const char* what) {
  std::fprintf(stderr, "fuzz invariant failed: %s\n", what);
  std::abort();
}

}  // namespace lb::fuzz
