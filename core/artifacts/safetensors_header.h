#pragma once
// Validates a .safetensors file's header without reading tensor data: the 8-byte little-endian
// header length, the header's JSON, every tensor's dtype, shape and byte extent, and that the
// extents tile the data region exactly (sorted, no overlap, no gap, ending at end of file).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb::artifacts {

// The safetensors library's own bound on header size.
inline constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100'000'000;
// Per file, issues beyond this are counted, not listed (a hostile header can hold millions).
inline constexpr std::size_t kMaxListedHeaderIssues = 20;

struct SafetensorsCheck {
  std::string path;  // as given to the check (the caller's relative path when from verify)
  std::uint64_t header_bytes = 0;
  std::uint64_t data_bytes = 0;
  std::size_t tensors = 0;
  std::vector<std::string> issues;  // empty: header valid
  std::size_t unlisted_issues = 0;
  bool ok() const { return issues.empty(); }
};

// Bits per element for a safetensors dtype name (F4 = 4, F6_E2M3 = 6, BF16 = 16 ...).
std::optional<unsigned> safetensors_dtype_bits(std::string_view dtype);

SafetensorsCheck check_safetensors_file(const std::filesystem::path& file);
// Checks a header already in memory against a file of `file_size_bytes`.
void check_safetensors_header(std::string_view header, std::uint64_t file_size_bytes,
                              SafetensorsCheck& out);

}  // namespace lb::artifacts
