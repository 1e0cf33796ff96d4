// bench_compare: lb::compare's difflib-compatible ratio against CPython's difflib on the same
// pairs (median of runs), and a 150 KB pair compared and highlighted end to end.
//
//   build-*/bench/compare/bench_compare [--runs N] [--no-python]
//
// Prints a Markdown table (the figures in docs/benchmarks.md, section "Comparison").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/compare/diff_highlight.h"
#include "core/compare/similarity.h"
#include "core/compare/triage.h"
#include "generated_text.h"

namespace {

using Clock = std::chrono::steady_clock;
using Pairs = std::vector<std::pair<std::string, std::string>>;

struct LongSpec {
  uint64_t seed;
  int words;
  int mutation_permille;
};
constexpr LongSpec kLong[] = {{11, 30000, 5}, {12, 30000, 1}};  // as difflib_speed.py

// CPU time of this thread: on a shared machine wall time mostly measures the neighbours.
double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double g_last_wall_s = 0;  // wall-clock median of the last median_s() call

template <typename Fn>
double median_s(int runs, Fn fn) {
  std::vector<double> cpu;
  std::vector<double> wall;
  for (int r = 0; r < runs; ++r) {
    const double c0 = thread_cpu_s();
    const auto t0 = Clock::now();
    fn();
    wall.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    cpu.push_back(thread_cpu_s() - c0);
  }
  g_last_wall_s = median(wall);
  return median(cpu);
}

Pairs short_char_pairs() {
  std::ifstream in(LANEBENCH_SOURCE_DIR "/tests/fixtures/difflib/short_pairs.json");
  const auto file = nlohmann::json::parse(in);
  Pairs pairs;
  for (const auto& c : file.at("cases")) {
    if (c.value("mode", std::string("char")) != "char" || c.contains("junk") ||
        !c.value("autojunk", true)) {
      continue;
    }
    pairs.emplace_back(c.at("a").get<std::string>(), c.at("b").get<std::string>());
  }
  return pairs;
}

nlohmann::json python_timings(int runs) {
  const std::string command =
      "python3 " LANEBENCH_SOURCE_DIR "/bench/compare/difflib_speed.py " + std::to_string(runs);
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return nullptr;
  std::string output;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
  if (pclose(pipe) != 0) return nullptr;
  return nlohmann::json::parse(output, nullptr, false);
}

std::string fixed(double v, const char* unit) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f%s", v, unit);
  return buffer;
}

volatile double g_sink = 0;  // keeps the optimiser from dropping the timed work

}  // namespace

int main(int argc, char** argv) {
  int runs = 7;
  bool python = true;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    if (!std::strcmp(argv[i], "--no-python")) python = false;
  }
  using namespace lb::compare;
  const Pairs pairs = short_char_pairs();
  const double short_s = median_s(runs, [&] {
    for (const auto& [a, b] : pairs) g_sink = g_sink + similarity_ratio(a, b);
  });
  std::vector<double> long_ratio_s;
  std::vector<double> long_full_ms;
  std::vector<double> long_full_wall_ms;
  std::vector<std::size_t> long_bytes;
  for (const auto& spec : kLong) {
    const auto [a, b] = testing::generated_pair(spec.seed, spec.words, spec.mutation_permille);
    long_bytes.push_back(a.size());
    long_ratio_s.push_back(median_s(runs, [&] { g_sink = g_sink + similarity_ratio(a, b); }));
    long_full_ms.push_back(1000 * median_s(runs, [&] {
                             const auto triage = triage_pair(a, b);
                             const auto highlight = DiffHighlight::compute(a, b);
                             g_sink = g_sink + triage.ratio + highlight.runs().size();
                           }));
    long_full_wall_ms.push_back(1000 * g_last_wall_s);
  }
  const nlohmann::json py = python ? python_timings(runs) : nlohmann::json(nullptr);
  const bool have_py = py.is_object();
  std::printf("| workload | lb::compare | CPython difflib | speed-up |\n|---|---|---|---|\n");
  std::printf("| ratio, %zu golden pairs (total) | %.2f ms | %s | %s |\n", pairs.size(),
              1000 * short_s,
              have_py ? fixed(1000 * py["short_pairs_s"].get<double>(), " ms").c_str() : "-",
              have_py ? fixed(py["short_pairs_s"].get<double>() / short_s, "x").c_str() : "-");
  for (std::size_t i = 0; i < long_ratio_s.size(); ++i) {
    const double p = have_py ? py["long_pairs_s"][i].get<double>() : 0;
    std::printf("| ratio, %zu KB pair (seed %llu) | %.2f ms | %s | %s |\n", long_bytes[i] / 1024,
                static_cast<unsigned long long>(kLong[i].seed), 1000 * long_ratio_s[i],
                have_py ? fixed(1000 * p, " ms").c_str() : "-",
                have_py ? fixed(p / long_ratio_s[i], "x").c_str() : "-");
  }
  for (std::size_t i = 0; i < long_full_ms.size(); ++i) {
    std::printf(
        "| triage + highlight, %zu KB pair (seed %llu) | %.2f ms (wall %.2f ms) | | goal < 100 "
        "ms |\n",
        long_bytes[i] / 1024, static_cast<unsigned long long>(kLong[i].seed), long_full_ms[i],
        long_full_wall_ms[i]);
  }
  std::printf("\nthread CPU time, median of %d runs%s\n", runs,
              have_py ? (", python " + py["python"].get<std::string>()).c_str() : "");
  return 0;
}
