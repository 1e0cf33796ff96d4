#include "hash_bench.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "core/artifacts/parallel_hasher.h"

extern char** environ;

namespace lb::bench {
namespace fs = std::filesystem;
namespace {

double seconds(const timeval& tv) { return double(tv.tv_sec) + double(tv.tv_usec) / 1e6; }

double cpu_seconds(int who) {
  rusage ru{};
  ::getrusage(who, &ru);
  return seconds(ru.ru_utime) + seconds(ru.ru_stime);
}

pid_t spawn_sha256sum(const std::vector<fs::path>& files) {
  std::vector<std::string> args{"sha256sum"};
  for (const auto& f : files) {
    args.push_back(f.string());
  }
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (auto& a : args) {
    argv.push_back(a.data());
  }
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "sha256sum", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    throw std::runtime_error("cannot start sha256sum");
  }
  return pid;
}

}  // namespace

FileSet generate_file_set(const fs::path& parent, std::uint64_t total_bytes, unsigned count) {
  std::string pattern = (parent / "lanebench-hash-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) {
    throw std::runtime_error("mkdtemp failed in " + parent.string());
  }
  FileSet set{pattern, {}, 0};
  std::vector<std::uint64_t> block(1 << 17);  // 1 MiB
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  for (unsigned i = 0; i < count; ++i) {
    const fs::path path = set.dir / ("shard-" + std::to_string(i) + ".bin");
    std::ofstream out(path, std::ios::binary);
    const std::uint64_t bytes = total_bytes / count;
    for (std::uint64_t written = 0; written < bytes;) {
      for (auto& word : block) {  // xorshift64: fast, and the data does not compress
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        word = state;
      }
      const std::uint64_t n = std::min<std::uint64_t>(bytes - written, block.size() * 8);
      out.write(reinterpret_cast<const char*>(block.data()), static_cast<std::streamsize>(n));
      written += n;
    }
    if (!out) {
      std::error_code ec;
      fs::remove_all(set.dir, ec);  // a full /tmp must not keep the partial set
      throw std::runtime_error("cannot write " + path.string());
    }
    set.files.push_back(path);
    set.total_bytes += bytes;
  }
  return set;
}

HashTiming time_lanebench(const FileSet& set, unsigned threads) {
  std::vector<artifacts::HashJob> jobs;
  for (const auto& f : set.files) {
    jobs.push_back({f, fs::file_size(f)});
  }
  artifacts::HashOptions options;
  options.threads = threads;
  const double cpu0 = cpu_seconds(RUSAGE_SELF);
  const auto t0 = std::chrono::steady_clock::now();
  const auto digests = artifacts::hash_files(jobs, options);
  const auto t1 = std::chrono::steady_clock::now();
  for (const auto& d : digests) {
    if (!d.ok()) {
      throw std::runtime_error("hashing failed: " + d.error);
    }
  }
  return {std::chrono::duration<double>(t1 - t0).count(), cpu_seconds(RUSAGE_SELF) - cpu0};
}

HashTiming time_sha256sum(const FileSet& set, unsigned processes) {
  processes = std::max(1u, std::min<unsigned>(processes, static_cast<unsigned>(set.files.size())));
  std::vector<std::vector<fs::path>> shares(processes);
  for (std::size_t i = 0; i < set.files.size(); ++i) {
    shares[i % processes].push_back(set.files[i]);
  }
  const double cpu0 = cpu_seconds(RUSAGE_CHILDREN);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<pid_t> pids;
  pids.reserve(shares.size());
  for (const auto& share : shares) {
    pids.push_back(spawn_sha256sum(share));
  }
  for (pid_t pid : pids) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      throw std::runtime_error("sha256sum failed");
    }
  }
  const auto t1 = std::chrono::steady_clock::now();
  return {std::chrono::duration<double>(t1 - t0).count(), cpu_seconds(RUSAGE_CHILDREN) - cpu0};
}

double median(std::vector<double> values) {
  if (values.empty()) {
    return 0.0;
  }
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

}  // namespace lb::bench
