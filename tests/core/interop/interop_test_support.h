#pragma once
// Shared by the interop tests: fixture paths, a scratch folder, and a search of every file in a
// run folder for text that must not be there.
#include <QtTest>
#include <filesystem>
#include <string>

#include "run_folder_reader.h"
#include "test_paths.h"

namespace lb::test {

inline std::string interop_fixture(const std::string& name) {
  return lb::test::fixtures_dir() + "/interop/" + name;
}

// The first file under `dir` whose bytes contain `needle`, or "" when none does.
inline std::string file_containing(const std::filesystem::path& dir, const std::string& needle) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && read_text(entry.path()).find(needle) != std::string::npos)
      return entry.path().string();
  return {};
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace lb::test
