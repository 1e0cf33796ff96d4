#pragma once
// One timed hashing pass over a file set, by lb_artifacts in-process or by `sha256sum`
// processes, measured in wall time and in CPU time (so a shared machine's load shows up as
// waiting, not as a slower hasher).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace lb::bench {

struct HashTiming {
  double wall_s = 0.0;
  double cpu_s = 0.0;  // user + system of the hashing threads or processes
};

struct FileSet {
  std::filesystem::path dir;
  std::vector<std::filesystem::path> files;
  std::uint64_t total_bytes = 0;
};

// Writes `count` files of pseudo-random bytes (incompressible, no page sharing) totalling
// `total_bytes` under a fresh directory in `parent`.
FileSet generate_file_set(const std::filesystem::path& parent, std::uint64_t total_bytes,
                          unsigned count);

HashTiming time_lanebench(const FileSet& set, unsigned threads);
// `processes` sha256sum processes, each given an equal share of the files; throws when
// sha256sum is missing or fails.
HashTiming time_sha256sum(const FileSet& set, unsigned processes);

double median(std::vector<double> values);

}  // namespace lb::bench
