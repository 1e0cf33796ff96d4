#pragma once
// Entry names of a zip archive, read from its central directory (zip64 included) without
// inflating anything: enough to tell a PyTorch checkpoint (which stores <name>/data.pkl).
#include <filesystem>
#include <string>
#include <vector>

namespace lb::artifacts {

struct ZipListing {
  std::vector<std::string> names;
  std::string error;  // the archive's directory could not be read; names may still hold the
                      // first local entry's name
};

inline constexpr std::size_t kMaxZipEntriesListed = 100000;

ZipListing list_zip_entries(const std::filesystem::path& path);

}  // namespace lb::artifacts
