#include "core/artifacts/parallel_hasher.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <thread>

namespace lb::artifacts {
namespace {

class ProgressCounter {
 public:
  ProgressCounter(const std::vector<HashJob>& jobs, const HashOptions& options)
      : on_progress_(options.on_progress) {
    progress_.files_total = jobs.size();
    for (const auto& job : jobs) {
      progress_.bytes_total += job.expected_size_bytes;
    }
  }
  void add_bytes(std::uint64_t bytes) {
    std::lock_guard lock(mutex_);
    progress_.bytes_done += bytes;
    report();
  }
  void add_file() {
    std::lock_guard lock(mutex_);
    ++progress_.files_done;
    report();
  }

 private:
  void report() {
    if (on_progress_) {
      on_progress_(progress_);
    }
  }
  std::mutex mutex_;
  HashProgress progress_;
  const std::function<void(const HashProgress&)>& on_progress_;
};

}  // namespace

std::vector<FileDigest> hash_files(const std::vector<HashJob>& jobs, const HashOptions& options) {
  std::vector<FileDigest> results(jobs.size());
  if (jobs.empty()) {
    return results;
  }
  unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  threads = std::clamp<unsigned>(threads, 1, static_cast<unsigned>(jobs.size()));
  const std::size_t buffer_bytes = std::max<std::size_t>(options.buffer_bytes, 4096);

  // Largest files first, so one big shard does not start last and leave the others idle.
  std::vector<std::size_t> order(jobs.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return jobs[a].expected_size_bytes > jobs[b].expected_size_bytes;
  });

  ProgressCounter counter(jobs, options);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    auto buffer = std::make_unique<char[]>(buffer_bytes);
    const ChunkCallback on_chunk = [&](std::uint64_t bytes) { counter.add_bytes(bytes); };
    for (std::size_t k = next++; k < order.size(); k = next++) {
      const std::size_t i = order[k];
      results[i] = sha256_file(jobs[i].path, buffer.get(), buffer_bytes, on_chunk, options.cancel);
      counter.add_file();
    }
  };
  std::vector<std::jthread> pool;
  pool.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) {
    pool.emplace_back(worker);
  }
  worker();      // the calling thread works too rather than idling in join
  pool.clear();  // join before results leave this frame
  return results;
}

}  // namespace lb::artifacts
