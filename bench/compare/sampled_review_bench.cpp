// bench_sampled_review: the sampled review of 20 prompts x 16 samples x 256 tokens per lane —
// every within-lane and cross-lane similarity ratio (496 pairs per prompt), the permutation
// tests (1,999 permutations each), Benjamini–Hochberg and the fact checks.
//
//   build-*/bench/compare/bench_sampled_review [--runs N] [--threads T]
//
// Samples are generated: each prompt has a 256-word answer; a sample keeps it up to a random
// point (swapping about 1 word in 20 before it) and continues with words of its own, as sampled
// decoding parts from the likeliest answer. Half the prompts of the candidate lane part earlier.
// Prints a Markdown table (the figures in docs/benchmarks.md, section "Sampled review").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "core/compare/sampled_review.h"
#include "core/metrics/bootstrap_random.h"

namespace {

// CPU time of every thread of the process: what the review costs whatever else the machine runs.
double process_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

constexpr int kPrompts = 20;
constexpr int kSamples = 16;
constexpr int kWords = 256;

std::string word(lb::metrics::BootstrapRng& rng) {
  static const char* kVocab[] = {"the",   "model",  "answer",  "serving", "token",   "batch",
                                 "cache", "prefix", "decode",  "latency", "weights", "fp8",
                                 "is",    "of",     "and",     "with",    "faster",  "same",
                                 "when",  "each",   "request", "server",  "lane",    "result"};
  return kVocab[rng.index(std::size(kVocab))];
}

std::vector<std::string> base_answer(int prompt) {
  lb::metrics::BootstrapRng rng(1000 + static_cast<uint64_t>(prompt));
  std::vector<std::string> w;
  for (int i = 0; i < kWords; ++i) w.push_back(word(rng));
  return w;
}

std::string sample(const std::vector<std::string>& base, uint64_t seed, int earliest_part) {
  lb::metrics::BootstrapRng rng(seed);
  const int part = earliest_part + static_cast<int>(rng.index(kWords - earliest_part + 1));
  std::string out;
  for (int i = 0; i < kWords; ++i) {
    const bool own = i >= part || rng.uniform() < 0.05;
    out += (i ? " " : "") + (own ? word(rng) : base[static_cast<size_t>(i)]);
  }
  return out + ".";
}

std::vector<lb::compare::PromptSamples> lane(int lane_id) {
  std::vector<lb::compare::PromptSamples> out(kPrompts);
  for (int p = 0; p < kPrompts; ++p) {
    const auto base = base_answer(p);
    // The candidate (lane 1) parts from the likeliest answer earlier on even prompts.
    const int earliest = lane_id == 1 && p % 2 == 0 ? 32 : 128;
    for (int k = 0; k < kSamples; ++k)
      out[static_cast<size_t>(p)].texts.push_back(sample(
          base, 7919u * static_cast<uint64_t>(lane_id * 1000 + p * kSamples + k + 1), earliest));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  unsigned threads = 0;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs"))
      runs = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--threads"))
      threads = static_cast<unsigned>(std::atoi(argv[++i]));
  }
  const auto a = lane(0), b = lane(1);
  lb::plan::PromptSet set;
  set.name = "bench";
  for (int p = 0; p < kPrompts; ++p) {
    lb::plan::PromptSpec spec;
    spec.id = "p" + std::to_string(p);
    lb::plan::FactCheck check;
    check.text = "cache";
    spec.checks = {check};
    set.prompts.push_back(spec);
  }
  size_t chars = 0;
  for (const auto& p : a)
    for (const auto& t : p.texts) chars += t.size();
  lb::compare::SampledReviewOptions options;
  options.threads = threads;
  std::vector<double> wall, cpu;
  lb::compare::SampledComparison last;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = process_cpu_s();
    last = lb::compare::compare_samples("a", "b", a, b, &set, options);
    cpu.push_back(process_cpu_s() - c0);
    wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  std::printf("| 20 prompts x 16 samples x 256 tokens (%zu chars/sample) | wall s |\n",
              chars / (kPrompts * kSamples));
  std::printf("|---|---:|\n");
  std::printf("| sampled review, threads %u (0 = one per core), median of %d | %.3f |\n", threads,
              runs, wall[wall.size() / 2]);
  std::printf("| min / max | %.3f / %.3f |\n", wall.front(), wall.back());
  std::printf("| CPU time of all threads, median | %.3f |\n", cpu[cpu.size() / 2]);
  std::printf("\nshifted %lld of %d prompts (the candidate parts earlier on 10)\n",
              static_cast<long long>(last.count(lb::compare::SampledResult::Shifted)), kPrompts);
  return 0;
}
