// lanebench-bench-client: measurement fidelity and headroom of the streaming client.
//   per-event arrival error (client arrival - server send) p50/p99 at several concurrencies,
//   events/s ingested with the server writing batched small events as fast as it can,
//   CPU time of the client's I/O thread per event.
// Each figure is the median over --runs repetitions.
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "client_bench.h"

namespace {

// 1,000 streams need 2,000+ descriptors (client and server ends in one process).
void raise_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int g_top_logprobs = 0;              // --logprobs
int g_events_per_stream = 0;         // --events (0: each level's own)
bool g_logprobs_as_comment = false;  // --logprobs-as-comment

lb::bench::FidelityConfig fidelity_config(int concurrency) {
  lb::bench::FidelityConfig c;
  c.top_logprobs = g_top_logprobs;
  c.logprobs_as_comment = g_logprobs_as_comment;
  c.concurrency = concurrency;
  if (concurrency <= 1) {
    c.events_per_stream = 500, c.event_interval_us = 4000;
  } else if (concurrency <= 64) {
    c.events_per_stream = 200, c.event_interval_us = 10'000;
  } else if (concurrency <= 256) {
    c.events_per_stream = 100, c.event_interval_us = 10'000;  // 25,600 events/s
  } else {
    c.events_per_stream = 60, c.event_interval_us = 20'000;  // 50,000 events/s at c1000
  }
  if (g_events_per_stream > 0) c.events_per_stream = g_events_per_stream;
  return c;
}

// Median over `runs` of one fidelity level; prints a table row unless `json`.
nlohmann::json fidelity_level(int concurrency, int runs, bool json) {
  std::vector<double> p50, p99, max, sent, cpu;
  int64_t events = 0;
  int failed = 0;
  for (int r = 0; r < runs; ++r) {
    const auto res = lb::bench::run_fidelity(fidelity_config(concurrency));
    p50.push_back(res.p50_error_ms);
    p99.push_back(res.p99_error_ms);
    max.push_back(res.max_error_ms);
    sent.push_back(res.p99_t_sent_to_server_ms);
    cpu.push_back(res.cpu_us_per_event);
    events = res.events;
    failed += res.failed_requests;
  }
  if (!json) {
    std::printf("%-6d %9lld %8d %9.3f %9.3f %9.3f %11.3f %10.2f\n", concurrency,
                static_cast<long long>(events), failed, median(p50), median(p99), median(max),
                median(sent), median(cpu));
    std::fflush(stdout);
  }
  return {{"concurrency", concurrency},
          {"events_per_run", events},
          {"failed_requests", failed},
          {"p50_error_ms", median(p50)},
          {"p99_error_ms", median(p99)},
          {"max_error_ms", median(max)},
          {"p99_t_sent_to_server_ms", median(sent)},
          {"cpu_us_per_event", median(cpu)}};
}

// --logprobs-paired: `runs` rounds of three runs in turn at one level (no logprobs, top-K kept,
// the same bytes as a comment), so that a slow spell of a shared machine falls on all three
// modes alike. Prints each mode's medians and the median over rounds of its ratio to the run
// without logprobs in the same round, and the p99 of all its rounds' events pooled (steadier
// than any one run's p99, which a single stall of the machine can move several-fold).
nlohmann::json paired_level(int concurrency, int runs, bool json) {
  static const char* kModes[] = {"none", "kept", "comment"};
  std::vector<double> p50[3], p99[3], cpu[3], p99_ratio[3], cpu_ratio[3], pooled[3];
  int failed = 0;
  for (int r = 0; r < runs; ++r) {
    lb::bench::FidelityResult res[3];
    for (int m = 0; m < 3; ++m) {
      auto config = fidelity_config(concurrency);
      config.top_logprobs = m == 0 ? 0 : g_top_logprobs;
      config.logprobs_as_comment = m == 2;
      res[m] = lb::bench::run_fidelity(config);
      failed += res[m].failed_requests;
      p50[m].push_back(res[m].p50_error_ms);
      p99[m].push_back(res[m].p99_error_ms);
      cpu[m].push_back(res[m].cpu_us_per_event);
      pooled[m].insert(pooled[m].end(), res[m].errors_ms.begin(), res[m].errors_ms.end());
    }
    for (int m = 1; m < 3; ++m) {
      if (res[0].p99_error_ms > 0)
        p99_ratio[m].push_back(res[m].p99_error_ms / res[0].p99_error_ms);
      if (res[0].cpu_us_per_event > 0)
        cpu_ratio[m].push_back(res[m].cpu_us_per_event / res[0].cpu_us_per_event);
    }
  }
  nlohmann::json out = {
      {"concurrency", concurrency}, {"rounds", runs}, {"failed_requests", failed}};
  for (int m = 0; m < 3; ++m) {
    nlohmann::json row = {{"p50_error_ms", median(p50[m])},
                          {"p99_error_ms", median(p99[m])},
                          {"cpu_us_per_event", median(cpu[m])},
                          {"pooled_p99_error_ms", lb::bench::percentile(pooled[m], 99)},
                          {"p99_error_ms_by_round", p99[m]},
                          {"cpu_us_per_event_by_round", cpu[m]}};
    if (m > 0) {
      row["p99_ratio_to_none"] = median(p99_ratio[m]);
      row["cpu_ratio_to_none"] = median(cpu_ratio[m]);
    }
    if (!json) {
      std::printf("%-6d %-8s %9.3f %9.3f %10.3f %10.2f", concurrency, kModes[m], median(p50[m]),
                  median(p99[m]), lb::bench::percentile(pooled[m], 99), median(cpu[m]));
      if (m > 0) std::printf(" %12.3f %12.3f", median(p99_ratio[m]), median(cpu_ratio[m]));
      std::printf("\n");
    }
    out[kModes[m]] = row;
  }
  return out;
}

// Median over `runs` of the events/s run; prints a summary line unless `json`.
nlohmann::json throughput(int concurrency, int runs, bool json) {
  std::vector<double> rate, cpu;
  int64_t events = 0;
  int failed = 0;
  for (int r = 0; r < runs; ++r) {
    lb::bench::ThroughputConfig config;
    config.concurrency = concurrency;
    // About 1.6 million events per run whatever the stream count.
    config.writes_per_stream = std::max(1, 1'638'400 / (concurrency * config.events_per_write));
    const auto res = lb::bench::run_throughput(config);
    rate.push_back(res.events_per_s);
    cpu.push_back(res.cpu_us_per_event);
    events = res.events;
    failed += res.failed_requests;
  }
  if (!json) {
    std::printf(
        "\nthroughput: %d streams, %lld events per run, %d failed: %.0f events/s, "
        "%.2f us CPU per event (median of %d runs)\n",
        concurrency, static_cast<long long>(events), failed, median(rate), median(cpu), runs);
  }
  return {{"concurrency", concurrency},
          {"events_per_run", events},
          {"failed_requests", failed},
          {"events_per_s", median(rate)},
          {"cpu_us_per_event", median(cpu)}};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Streaming client benchmark against a loopback server with ground-truth send times"};
  std::vector<int> concurrency = {1, 64, 256, 1000};
  int runs = 3;
  int throughput_concurrency = 64;
  bool json = false;
  app.add_option("--concurrency", concurrency, "concurrency levels for the fidelity runs")
      ->delimiter(',');
  app.add_option("--runs", runs, "repetitions; each figure is their median")
      ->check(CLI::PositiveNumber);
  app.add_option("--throughput-concurrency", throughput_concurrency,
                 "streams in the events/s run (0 skips it)");
  app.add_flag("--json", json, "print JSON instead of a table");
  app.add_option("--logprobs", g_top_logprobs,
                 "fidelity chunks carry per-token logprobs with this top-K (0 = none)");
  app.add_flag("--logprobs-as-comment", g_logprobs_as_comment,
               "with --logprobs: the same bytes per chunk, sent as an SSE comment the client "
               "skips (the transport without the logprobs' reading)");
  app.add_option("--events", g_events_per_stream,
                 "events per stream in the fidelity runs (default: 500 at c1, 200 up to c64, 100 "
                 "up to c256, 60 above); longer runs weigh the start and end of a run less")
      ->check(CLI::PositiveNumber);
  bool paired = false;
  app.add_flag("--logprobs-paired", paired,
               "with --logprobs: each level runs --runs rounds of three runs in turn (none, top-K "
               "kept, the same bytes as a comment) and prints each mode's medians and the median "
               "of its per-round ratio to the run without logprobs");
  CLI11_PARSE(app, argc, argv);
  raise_file_limit();
  if (paired && g_top_logprobs <= 0) {
    std::fprintf(stderr, "--logprobs-paired needs --logprobs K (K > 0)\n");
    return 2;
  }
  if (paired) {
    nlohmann::json levels = nlohmann::json::array();
    if (!json) {
      std::printf("%-6s %-8s %9s %9s %10s %10s %12s %12s\n", "conc", "logprobs", "p50_ms", "p99_ms",
                  "pooled_p99", "cpu_us/ev", "p99/none", "cpu/none");
    }
    int failed = 0;
    for (int c : concurrency) {
      levels.push_back(paired_level(c, runs, json));
      failed += levels.back()["failed_requests"].get<int>();
    }
    if (json) std::printf("%s\n", nlohmann::json{{"paired", levels}}.dump(2).c_str());
    return failed == 0 ? 0 : 1;
  }

  nlohmann::json report = {{"fidelity", nlohmann::json::array()}};
  if (!json) {
    std::printf("%-6s %9s %8s %9s %9s %9s %11s %10s\n", "conc", "events", "failed", "p50_ms",
                "p99_ms", "max_ms", "sent_p99_ms", "cpu_us/ev");
  }
  int failed = 0;
  for (int c : concurrency) {
    report["fidelity"].push_back(fidelity_level(c, runs, json));
    failed += report["fidelity"].back()["failed_requests"].get<int>();
  }
  if (throughput_concurrency > 0) {
    report["throughput"] = throughput(throughput_concurrency, runs, json);
    failed += report["throughput"]["failed_requests"].get<int>();
  }
  if (json) std::printf("%s\n", report.dump(2).c_str());
  return failed == 0 ? 0 : 1;
}
