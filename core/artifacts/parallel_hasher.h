#pragma once
// Hashes many files at once on a small pool of threads (one file per thread at a time, so each
// read stays sequential), with progress and a cancel flag.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "core/artifacts/sha256.h"

namespace lb::artifacts {

struct HashProgress {
  std::uint64_t bytes_done = 0;
  std::uint64_t bytes_total = 0;  // sum of the sizes known before hashing started
  std::size_t files_done = 0;
  std::size_t files_total = 0;
};

struct HashOptions {
  unsigned threads = 0;  // 0: std::thread::hardware_concurrency()
  std::size_t buffer_bytes = kHashChunkBytes;
  // Called from the worker threads, one call at a time (serialised by the pool), after every
  // chunk and every finished file. Keep it cheap; throttle output in the callback.
  std::function<void(const HashProgress&)> on_progress;
  const std::atomic<bool>* cancel = nullptr;
};

struct HashJob {
  std::filesystem::path path;
  std::uint64_t expected_size_bytes = 0;  // for the progress total only
};

// Result i belongs to job i. Cancelled jobs come back with cancelled set.
std::vector<FileDigest> hash_files(const std::vector<HashJob>& jobs, const HashOptions& options);

}  // namespace lb::artifacts
