#pragma once
// Builds checkpoint folders for the artifact tests from real bytes: safetensors files written
// by a small writer that follows the format, stored (uncompressed) zip archives, HF cache trees.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace lb::artifacts::testing {

struct TensorSpec {
  std::string name;
  std::string dtype;
  std::vector<std::uint64_t> shape;
  unsigned bits_per_element = 8;  // must match dtype; the writer sizes the data from it
};

// A valid safetensors file: header padded with spaces to a multiple of 8 (as the reference
// writer does), tensors laid out back to back in the order given, data bytes patterned.
std::string safetensors_bytes(const std::vector<TensorSpec>& tensors,
                              const std::string& metadata_json = "");
// 8-byte little-endian length + header + data, with no checks: for hostile cases.
std::string raw_safetensors(std::uint64_t declared_header_bytes, const std::string& header,
                            const std::string& data);

// A stored zip archive with the given members (name, content).
std::string zip_bytes(const std::vector<std::pair<std::string, std::string>>& members);

void write_file(const std::filesystem::path& path, const std::string& bytes);
std::string read_file(const std::filesystem::path& path);

// Hugging Face cache: writes blobs/<digest> and links snapshots/<rev>/<name> to it; returns
// the digest used (SHA-256 for lfs files, git's blob SHA-1 otherwise).
std::string add_hf_file(const std::filesystem::path& repo_dir, const std::string& revision,
                        const std::string& name, const std::string& content, bool lfs);

}  // namespace lb::artifacts::testing
