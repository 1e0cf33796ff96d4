// check_safetensors_file on arbitrary bytes as a whole .safetensors file (held in a memfd, so the
// real open/fstat/pread path runs): never crashes; issues are bounded and say something; the
// byte counts add up to the file; the in-memory check of the same header agrees; and a header
// found valid is valid by an independent reckoning (every tensor's extent is its shape times its
// dtype size, and the extents add up to the data region).
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/artifacts/safetensors_header.h"
#include "split_input.h"

namespace {

using lb::artifacts::SafetensorsCheck;
using lb::fuzz::invariant_failed;

// One memfd for the whole run: rewritten per input, opened again by path like a real file.
int input_file() {
  static const int fd = memfd_create("fuzz.safetensors", 0);
  if (fd < 0) invariant_failed("memfd_create failed");
  return fd;
}

void write_input(int fd, const uint8_t* data, size_t size) {
  if (ftruncate(fd, 0) != 0) invariant_failed("ftruncate failed");
  size_t done = 0;
  while (done < size) {
    const ssize_t n = pwrite(fd, data + done, size - done, static_cast<off_t>(done));
    if (n <= 0) invariant_failed("pwrite failed");
    done += static_cast<size_t>(n);
  }
}

// Bytes the tensors claim, recomputed from the JSON without the checker's code.
void check_valid_header(const std::string& header, uint64_t data_bytes) {
  const auto doc = nlohmann::json::parse(header);
  uint64_t covered = 0;
  for (const auto& [name, info] : doc.items()) {
    if (name == "__metadata__") continue;
    const auto bits = lb::artifacts::safetensors_dtype_bits(info["dtype"].get<std::string>());
    if (!bits) invariant_failed("a valid header with an unknown dtype");
    unsigned __int128 total_bits = *bits;
    for (const auto& d : info["shape"]) total_bits *= d.get<uint64_t>();
    const auto begin = info["data_offsets"][0].get<uint64_t>();
    const auto end = info["data_offsets"][1].get<uint64_t>();
    if (end < begin || total_bits % 8 != 0 || total_bits / 8 != end - begin) {
      invariant_failed("a valid tensor whose extent is not its shape times its dtype size");
    }
    covered += end - begin;
  }
  if (covered != data_bytes) invariant_failed("valid tensors do not add up to the data region");
}

void check_result(const SafetensorsCheck& r, size_t size) {
  if (r.issues.size() > lb::artifacts::kMaxListedHeaderIssues) {
    invariant_failed("more issues listed than the limit");
  }
  if (r.unlisted_issues > 0 && r.issues.size() != lb::artifacts::kMaxListedHeaderIssues) {
    invariant_failed("issues left unlisted while the list has room");
  }
  for (const auto& issue : r.issues) {
    if (issue.empty()) invariant_failed("an empty issue");
  }
  if (r.header_bytes > 0 && 8 + r.header_bytes + r.data_bytes != size) {
    invariant_failed("header and data bytes do not add up to the file size");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const int fd = input_file();
  write_input(fd, data, size);
  const SafetensorsCheck r =
      lb::artifacts::check_safetensors_file("/proc/self/fd/" + std::to_string(fd));
  check_result(r, size);
  if (size < 8) {
    if (r.ok()) invariant_failed("a file shorter than the length prefix passed");
    return 0;
  }
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | data[i];
  if (n > size - 8) {
    if (r.ok()) invariant_failed("a header running past the end of the file passed");
    return 0;
  }
  const std::string header(reinterpret_cast<const char*>(data) + 8, n);
  SafetensorsCheck in_memory;
  lb::artifacts::check_safetensors_header(header, size, in_memory);
  if (in_memory.issues != r.issues || in_memory.tensors != r.tensors) {
    invariant_failed("the file check and the in-memory check disagree");
  }
  if (r.ok()) check_valid_header(header, size - 8 - n);
  return 0;
}
