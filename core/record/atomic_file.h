#pragma once
// Whole-file writes that a reader (or a crash) never sees half done: write a temporary file in
// the same directory, fsync it, then rename it over the target.
#include <string>
#include <string_view>

namespace lb::record {

// Creates parent directories as needed. Returns false and fills error on failure.
bool write_file_atomically(const std::string& path, std::string_view content,
                           std::string* error = nullptr);

}  // namespace lb::record
