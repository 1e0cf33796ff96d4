// bench_token_divergence: the cost of token-level evidence for a regression of 20 prompts x 256
// tokens with top-5 logprobs — parsing the streamed chat chunks with and without logprobs,
// writing and reading logprobs/<lane>.jsonl, and the divergence analysis of the 20 pairs.
//
//   build-*/bench/compare/bench_token_divergence [--runs N]
//
// Prints a Markdown table (the figures in docs/benchmarks.md, section "Token divergence").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/compare/token_divergence.h"
#include "core/logprobs/logprob_lines.h"
#include "core/net/stream_parser.h"

namespace {

constexpr int kPrompts = 20;
constexpr int kTokens = 256;
constexpr int kTopK = 5;

double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

template <typename Fn>
double median_cpu_s(int runs, Fn fn) {
  std::vector<double> cpu;
  for (int r = 0; r < runs; ++r) {
    const double c0 = thread_cpu_s();
    fn();
    cpu.push_back(thread_cpu_s() - c0);
  }
  std::sort(cpu.begin(), cpu.end());
  return cpu[cpu.size() / 2];
}

std::string piece(int prompt, int i, int lane) {
  static const char* kWords[] = {" the", " a", " model", " answer", ",", ".", " is", " of"};
  return kWords[(prompt * 31 + i * 7 + lane) % 8] + std::to_string(i % 10);
}

// One prompt's series; the candidate departs at token 40 + 9 * prompt.
lb::logprobs::PromptLogprobs series(int prompt, int lane) {
  lb::logprobs::PromptLogprobs p;
  p.index = prompt;
  p.prompt_id = "p" + std::to_string(prompt);
  p.top_k = kTopK;
  const int departs = 40 + 9 * prompt;
  for (int i = 0; i < kTokens; ++i) {
    lb::logprobs::TokenLogprob t;
    t.token = piece(prompt, i, i < departs ? 0 : lane);
    t.id = 1000 + (std::hash<std::string>{}(t.token) % 100000);
    t.logprob = -0.05 - 0.001 * i;
    for (int k = 0; k < kTopK; ++k) {
      const std::string alt = k == 0 ? t.token : piece(prompt, i, k + 2);
      t.top.push_back({alt, t.logprob - 0.9 * k, static_cast<int64_t>(2000 + k)});
    }
    p.tokens.push_back(std::move(t));
  }
  return p;
}

// The chat SSE stream vLLM sends for one answer, one token per chunk, with or without logprobs.
std::string chat_stream(const lb::logprobs::PromptLogprobs& p, bool with_logprobs) {
  std::string out;
  for (const auto& t : p.tokens) {
    nlohmann::json choice = {{"index", 0}, {"delta", {{"content", t.token}}}};
    if (with_logprobs) {
      nlohmann::json top = nlohmann::json::array();
      for (const auto& a : t.top) top.push_back({{"token", a.token}, {"logprob", a.logprob}});
      choice["logprobs"] = {
          {"content", {{{"token", t.token}, {"logprob", t.logprob}, {"top_logprobs", top}}}}};
    } else {
      choice["logprobs"] = nullptr;
    }
    nlohmann::json chunk = {{"id", "chatcmpl-1"},
                            {"object", "chat.completion.chunk"},
                            {"model", "m"},
                            {"choices", {choice}}};
    out += "data: " + chunk.dump() + "\n\n";
  }
  return out + "data: [DONE]\n\n";
}

// The stream parser's work (what the client's I/O thread does), and with `resolve` also the
// reading of the kept logprobs that the result's reader does later, off that thread.
double parse_stream_s(const std::string& bytes, int runs, bool resolve = false) {
  return median_cpu_s(runs, [&] {
    lb::net::StreamResult r;
    lb::net::StreamParser parser(lb::net::Dialect::OpenAiChat, 1 << 20, r);
    parser.feed(bytes, 1);
    parser.finish(2);
    if (r.content.empty()) std::abort();
    if (resolve) {
      lb::net::resolve_logprobs(r);
      if (r.logprobs.size() != static_cast<size_t>(kTokens)) std::abort();
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 9;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--runs") == 0) runs = std::max(1, std::atoi(argv[i + 1]));
  std::vector<lb::logprobs::PromptLogprobs> base, cand;
  for (int p = 0; p < kPrompts; ++p) base.push_back(series(p, 0)), cand.push_back(series(p, 1));
  std::vector<std::string> texts_a, texts_b;
  for (int p = 0; p < kPrompts; ++p) {
    std::string a, b;
    for (const auto& t : base[p].tokens) a += t.token;
    for (const auto& t : cand[p].tokens) b += t.token;
    texts_a.push_back(a), texts_b.push_back(b);
  }
  std::string file;
  const double write_s = median_cpu_s(runs, [&] {
    file.clear();
    for (const auto& p : base) file += lb::logprobs::to_line(p) + "\n";
  });
  const double read_s = median_cpu_s(runs, [&] {
    std::string error;
    if (lb::logprobs::parse_lines(file, error).size() != kPrompts) std::abort();
  });
  const double analyse_s = median_cpu_s(runs, [&] {
    for (int p = 0; p < kPrompts; ++p) {
      auto d = lb::compare::analyse_token_divergence(&base[p], &cand[p], texts_a[p], texts_b[p],
                                                     {0.5, kTopK});
      if (d.token_index != 40 + 9 * p) std::abort();
    }
  });
  const std::string with = chat_stream(base[0], true), without = chat_stream(base[0], false);
  const double with_s = parse_stream_s(with, runs * 5),
               without_s = parse_stream_s(without, runs * 5),
               resolved_s = parse_stream_s(with, runs * 5, true);
  const double tokens = kPrompts * kTokens;
  std::printf("| %d prompts x %d tokens, top-%d | CPU time (median of %d) |\n|---|---:|\n",
              kPrompts, kTokens, kTopK, runs);
  std::printf("| divergence analysis, 20 pairs | %.3f ms |\n", analyse_s * 1e3);
  std::printf("| write logprobs/<lane>.jsonl | %.3f ms |\n", write_s * 1e3);
  std::printf("| read it back | %.3f ms |\n", read_s * 1e3);
  std::printf("| stored size | %.0f bytes/token |\n", static_cast<double>(file.size()) / tokens);
  std::printf("| parse one 256-token chat stream, no logprobs | %.3f ms (%.2f us/chunk) |\n",
              without_s * 1e3, without_s * 1e6 / kTokens);
  std::printf(
      "| parse it with top-%d logprobs (I/O thread: values cut out) | %.3f ms (%.2f us/chunk) |\n",
      kTopK, with_s * 1e3, with_s * 1e6 / kTokens);
  std::printf("| the same, then read the logprobs (resolve_logprobs) | %.3f ms (%.2f us/chunk) |\n",
              resolved_s * 1e3, resolved_s * 1e6 / kTokens);
  return 0;
}
