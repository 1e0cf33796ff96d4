// lanebench-bench-hash: hashes a generated file set (default 1 GiB in 8 files under /tmp, deleted
// afterwards) with lb_artifacts and with coreutils sha256sum, single-threaded (per core) and in
// parallel, and prints the median MB/s of several runs and the ratio to sha256sum.
// Usage: lanebench-bench-hash [--mib N] [--files N] [--runs N] [--dir PATH]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>

#include "hash_bench.h"

namespace {

struct Args {
  std::uint64_t mib = 1024;
  unsigned files = 8;
  unsigned runs = 5;
  std::string dir = "/tmp";
};

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const char* value = argv[i + 1];
    if (key == "--mib") {
      a.mib = std::strtoull(value, nullptr, 10);
    } else if (key == "--files") {
      a.files = static_cast<unsigned>(std::strtoul(value, nullptr, 10));
    } else if (key == "--runs") {
      a.runs = static_cast<unsigned>(std::strtoul(value, nullptr, 10));
    } else if (key == "--dir") {
      a.dir = value;
    } else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      std::exit(2);
    }
  }
  if (a.mib == 0 || a.files == 0 || a.runs == 0) {
    std::exit(2);
  }
  return a;
}

struct Row {
  double wall_mb_s = 0;
  double cpu_mb_s = 0;  // bytes per CPU-second: the per-core rate
};

Row measure(const std::function<lb::bench::HashTiming()>& pass, double bytes, unsigned runs) {
  std::vector<double> wall, cpu;
  for (unsigned r = 0; r < runs; ++r) {
    const auto t = pass();
    wall.push_back(bytes / t.wall_s / 1e6);
    cpu.push_back(bytes / t.cpu_s / 1e6);
  }
  return {lb::bench::median(wall), lb::bench::median(cpu)};
}

void print_row(const char* name, const Row& r, const Row& ref) {
  std::printf("%-30s %10.0f %10.0f %8.2fx %8.2fx\n", name, r.wall_mb_s, r.cpu_mb_s,
              r.wall_mb_s / ref.wall_mb_s, r.cpu_mb_s / ref.cpu_mb_s);
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  lb::bench::FileSet set;
  try {
    set = lb::bench::generate_file_set(args.dir, args.mib << 20, args.files);
    const double bytes = double(set.total_bytes);
    lb::bench::time_sha256sum(set, 1);  // warm the page cache so every pass reads from memory
    const Row sum1 = measure([&] { return lb::bench::time_sha256sum(set, 1); }, bytes, args.runs);
    const Row lb1 = measure([&] { return lb::bench::time_lanebench(set, 1); }, bytes, args.runs);
    const Row sumN =
        measure([&] { return lb::bench::time_sha256sum(set, cores); }, bytes, args.runs);
    const Row lbN =
        measure([&] { return lb::bench::time_lanebench(set, cores); }, bytes, args.runs);
    std::printf("%llu MiB in %u files, %u runs (median), %u cores\n",
                static_cast<unsigned long long>(set.total_bytes >> 20), args.files, args.runs,
                cores);
    std::printf("%-30s %10s %10s %9s %9s\n", "", "wall MB/s", "CPU MB/s", "wall x", "CPU x");
    print_row("sha256sum, 1 process", sum1, sum1);
    print_row("lanebench, 1 thread", lb1, sum1);
    print_row(("sha256sum, " + std::to_string(cores) + " processes").c_str(), sumN, sumN);
    print_row(("lanebench, " + std::to_string(cores) + " threads").c_str(), lbN, sumN);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lanebench-bench-hash: %s\n", e.what());
    std::error_code ec;
    if (!set.dir.empty()) {
      std::filesystem::remove_all(set.dir, ec);
    }
    return 1;
  }
  std::error_code ec;
  std::filesystem::remove_all(set.dir, ec);
  return 0;
}
