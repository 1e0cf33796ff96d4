// lanebench-bench-open-loop: replays an open-loop schedule (a Mooncake trace with one request
// every 1/rate s, short prompts and outputs) against a lanebench-sim process through the
// product's own path (plan, trace experiment, load driver, stream client, run folder), and
// reports from summary.json:
//   the client's send lateness (t_sent - t_sched) p50 / p99 / max, and the late share (> 10 ms);
//   whether the simulator kept up: every request answered, the completion rate against the
//   schedule's, and TTFT p99;
//   the same from the simulator's side, read from its own /metrics: the requests it finished and
//   the bucket bounds holding 99 % of its TTFT and end-to-end latencies, timed from when it
//   received each request (the run's server_counters_delta), and, from readings every --watch-ms
//   during the run, the rate at which it finished them and the most it held at once.
// Each figure is the median over --runs repetitions; --json prints them as one JSON object.
// With --speedup, a real trace is replayed instead: the first --rows rows of --trace FILE (a
// Mooncake JSONL file, e.g. FAST25-release/traces/conversation_trace.jsonl of kvcache-ai/Mooncake)
// at each speedup, or without --trace a generated trace with its prompt lengths (mean about 12K
// tokens, the largest 126,195) and its rate (3.4 requests a second before the speedup).
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "core/plan/plan.h"
#include "core/run/plan_runner.h"
#include "core/run/run_sink.h"
#include "sim_process.h"
#include "sim_watch.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Options {
  std::vector<double> rates = {1000, 2000};
  double seconds = 5;  // schedule length per run
  int runs = 5;
  int input_tokens = 32;
  int output_tokens = 4;
  std::string sim = LANEBENCH_SIM_PROGRAM;
  std::string profile = "fp8";
  // Model time is scaled down, the batch is wide and a bigger batch or a prefill in the same step
  // does not slow decoding, so the simulator answers each short request in a few ms whatever the
  // rate: what is measured is the client's schedule, not a queue. With the profile's
  // batch_slowdown (0.3 per sequence, fitted at up to 5 sequences) the modelled engine would
  // saturate near 1,000 of these requests/s and its queue would grow without bound.
  std::vector<std::string> sim_sets = {"time_scale=0.05", "max_num_seqs=4096",
                                       "max_num_batched_tokens=1000000", "batch_slowdown=0",
                                       "prefill_interference=0"};
  int watch_ms = 20;  // how often the simulator's /metrics are read during a run
  bool json = false;
  bool sim_inherits_priority = false;
  // Trace mode: speedups to replay TRACE at (its first ROWS rows); no TRACE = a generated one.
  std::vector<double> speedups;
  std::string trace;
  int rows = 2000;
};

// A Mooncake-like conversation trace: exponential gaps at 3.4 requests a second, prompt lengths
// log-normal with a mean near 12K tokens, cut to [128, 126,195] (the largest appears once), each
// prompt its own blocks of 512 tokens. Seeded: the same file every time.
void write_generated_trace(const std::filesystem::path& path, int rows) {
  std::mt19937_64 random(1);
  std::exponential_distribution<double> gap_ms(3.4 / 1000.0);
  std::lognormal_distribution<double> length(std::log(12'000.0) - 0.5 * 0.9 * 0.9, 0.9);
  std::ofstream out(path);
  double at_ms = 0;
  for (int i = 0; i < rows; ++i) {
    auto tokens = static_cast<int64_t>(std::clamp(length(random), 128.0, 126'195.0));
    if (i == rows / 4) tokens = 126'195;
    nlohmann::json blocks = nlohmann::json::array();
    for (int64_t k = 0; k * 512 < tokens; ++k) blocks.push_back(int64_t{i} * 1000 + k);
    out << nlohmann::json{{"timestamp", std::llround(at_ms)},
                          {"input_length", tokens},
                          {"output_length", 16},
                          {"hash_ids", blocks}}
               .dump()
        << "\n";
    at_ms += gap_ms(random);
  }
}

class NullSink final : public lb::run::RunSink {
 public:
  void on_request_done(const lb::metrics::RequestRecord&) override {}
  void on_progress(const lb::run::RunProgress&) override {}
  void on_message(lb::run::MessageLevel level, const std::string& text) override {
    if (level == lb::run::MessageLevel::Error) std::fprintf(stderr, "run: %s\n", text.c_str());
  }
};

// One request every 1/rate s (Mooncake timestamps are ms, fractions allowed).
void write_trace(const fs::path& path, const Options& o, double rate) {
  std::ofstream out(path);
  const auto count = static_cast<int64_t>(rate * o.seconds);
  for (int64_t i = 0; i < count; ++i)
    out << json{{"timestamp", static_cast<double>(i) * 1000.0 / rate},
                {"input_length", o.input_tokens},
                {"output_length", o.output_tokens}}
               .dump()
        << "\n";
}

struct RunFigures {
  double p50_ms = 0, p99_ms = 0, max_ms = 0, late_share = 0;
  double completed = 0, failed = 0, scheduled = 0;
  double completion_rate = 0, ttft_p99_ms = 0;
  // The simulator's side: requests it finished, and the upper bounds of the histogram buckets
  // holding 99 % of its TTFT and end-to-end latencies (-1 when it did not report them).
  double sim_finished = -1, sim_ttft_p99_ms = -1, sim_e2el_p99_ms = -1;
  // From /metrics readings during the run: its finishing rate, and its most requests running +
  // waiting at one reading.
  double sim_completion_rate = -1, sim_max_in_engine = -1;
  bool ok = false;
};

double number(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : -1;
}

// The upper bound (ms) of the first bucket of a delta histogram ({"buckets": [{"le", "count"}],
// "count"}) whose cumulative count reaches 99 % of the total; -1 when there is none.
double p99_bound_ms(const json& histogram) {
  if (!histogram.is_object() || !histogram.contains("buckets")) return -1;
  const double total = number(histogram, "count");
  if (total <= 0) return -1;
  for (const json& b : histogram["buckets"]) {
    if (number(b, "count") < 0.99 * total) continue;
    return b.contains("le") && b["le"].is_number() ? 1000 * b["le"].get<double>() : -1;
  }
  return -1;
}

// A level is a rate (a generated schedule of short prompts) or, in trace mode, a speedup.
RunFigures run_once(const Options& o, double level, int port, const fs::path& dir, int run) {
  RunFigures f;
  const bool trace_mode = !o.speedups.empty();
  fs::path trace = dir / ("trace-" + std::to_string(run) + ".jsonl");
  if (!trace_mode)
    write_trace(trace, o, level);
  else
    trace = o.trace.empty() ? dir / "generated.jsonl" : fs::path(o.trace);
  json experiment = {
      {"kind", "trace"}, {"path", trace.string()}, {"format", "mooncake"}, {"use_tokenize", false}};
  if (trace_mode) {
    experiment["speedup"] = level;
    experiment["max_requests"] = o.rows;
  }
  const json plan_json = {
      {"name", "open-loop bench"},
      {"lanes",
       {{{"id", "sim"}, {"base_url", "http://127.0.0.1:" + std::to_string(port) + "/v1"}}}},
      {"experiments", {experiment}}};
  auto parsed = lb::plan::parse_plan(plan_json.dump(), "bench plan");
  if (!parsed.ok()) {
    std::fprintf(stderr, "%s\n", parsed.error_text().c_str());
    return f;
  }
  lb::run::RunOptions options;
  options.out_dir = (dir / ("run-" + std::to_string(run))).string();
  NullSink sink;
  std::atomic<bool> stop{false};
  lb::bench::SimWatch watch("http://127.0.0.1:" + std::to_string(port) + "/metrics", o.watch_ms);
  const lb::run::RunResult result =
      lb::run::PlanRunner(std::move(*parsed.plan), options, sink).run(stop);
  const lb::bench::SimWatchFigures watched = watch.stop();
  f.sim_completion_rate = watched.completion_rate;
  f.sim_max_in_engine = watched.max_in_engine;
  const json& e = result.summary["experiments"][0];
  const json& schedule = e["lanes"]["sim"]["schedule"];
  const json& phase = e["lanes"]["sim"]["phases"]["trace"];
  if (!schedule.is_object() || !phase.is_object()) {
    for (const auto& err : result.errors) std::fprintf(stderr, "run: %s\n", err.c_str());
    return f;
  }
  f.p50_ms = number(schedule, "lateness_p50_ms");
  f.p99_ms = number(schedule, "lateness_p99_ms");
  f.max_ms = number(schedule, "lateness_max_ms");
  f.late_share = number(schedule, "late_share");
  f.scheduled = number(schedule, "scheduled");
  f.completed = number(phase, "completed");
  f.failed = number(phase, "failed");
  f.completion_rate = number(phase, "request_throughput");
  f.ttft_p99_ms = number(phase, "p99_ttft_ms");
  const json& server = e["lanes"]["sim"]["server_counters_delta"];
  if (server.is_object() && server.contains("e2el_seconds")) {
    f.sim_finished = number(server["e2el_seconds"], "count");
    f.sim_ttft_p99_ms = p99_bound_ms(server["ttft_seconds"]);
    f.sim_e2el_p99_ms = p99_bound_ms(server["e2el_seconds"]);
  }
  f.ok = true;
  fs::remove_all(options.out_dir);
  return f;
}

double median_of(const std::vector<RunFigures>& runs, double RunFigures::*field) {
  std::vector<double> v;
  for (const auto& r : runs) v.push_back(r.*field);
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

json level(const Options& o, double rate, int port, const fs::path& dir) {
  std::vector<RunFigures> runs;
  for (int r = 0; r < o.runs; ++r) {
    RunFigures f = run_once(o, rate, port, dir, r);
    if (!f.ok) continue;
    std::fprintf(stderr, "  run %d: lateness p50 %.3f ms, p99 %.3f ms, max %.2f ms, late %.2f %%\n",
                 r + 1, f.p50_ms, f.p99_ms, f.max_ms, 100.0 * f.late_share);
    runs.push_back(f);
  }
  json j = {{o.speedups.empty() ? "rate_req_s" : "speedup", rate}, {"runs", runs.size()}};
  if (runs.empty()) return j;
  j["lateness_p50_ms"] = median_of(runs, &RunFigures::p50_ms);
  j["lateness_p99_ms"] = median_of(runs, &RunFigures::p99_ms);
  j["lateness_max_ms"] = median_of(runs, &RunFigures::max_ms);
  j["late_share"] = median_of(runs, &RunFigures::late_share);
  j["scheduled"] = median_of(runs, &RunFigures::scheduled);
  j["completed"] = median_of(runs, &RunFigures::completed);
  j["failed"] = median_of(runs, &RunFigures::failed);
  j["completion_rate_req_s"] = median_of(runs, &RunFigures::completion_rate);
  j["ttft_p99_ms"] = median_of(runs, &RunFigures::ttft_p99_ms);
  j["sim_finished"] = median_of(runs, &RunFigures::sim_finished);
  j["sim_ttft_p99_bound_ms"] = median_of(runs, &RunFigures::sim_ttft_p99_ms);
  j["sim_e2el_p99_bound_ms"] = median_of(runs, &RunFigures::sim_e2el_p99_ms);
  j["sim_completion_rate_req_s"] = median_of(runs, &RunFigures::sim_completion_rate);
  j["sim_max_in_engine"] = median_of(runs, &RunFigures::sim_max_in_engine);
  double worst_p99 = 0;
  for (const auto& r : runs) worst_p99 = std::max(worst_p99, r.p99_ms);
  j["lateness_p99_worst_ms"] = worst_p99;
  return j;
}

void raise_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"Send lateness of an open-loop schedule replayed against lanebench-sim"};
  app.add_option("--rate", o.rates, "request rates to replay (req/s); repeatable")
      ->capture_default_str();
  app.add_option("--seconds", o.seconds, "schedule length of each run")->capture_default_str();
  app.add_option("--runs", o.runs, "repetitions; figures are their median")->capture_default_str();
  app.add_option("--input-tokens", o.input_tokens)->capture_default_str();
  app.add_option("--output-tokens", o.output_tokens)->capture_default_str();
  app.add_option("--sim", o.sim, "the lanebench-sim program")->capture_default_str();
  app.add_option("--profile", o.profile, "simulator profile")->capture_default_str();
  app.add_option("--sim-set", o.sim_sets,
                 "lanebench-sim --set KEY=VALUE overrides (given ones replace the defaults)")
      ->capture_default_str();
  app.add_option("--watch-ms", o.watch_ms, "how often the simulator's /metrics are read")
      ->check(CLI::Range(1, 10'000))
      ->capture_default_str();
  app.add_flag("--json", o.json, "print one JSON object");
  app.add_option("--speedup", o.speedups,
                 "replay a trace at these speedups instead of rates (repeatable)");
  app.add_option("--trace", o.trace,
                 "Mooncake JSONL trace to replay with --speedup; none = a generated one of its "
                 "prompt lengths")
      ->check(CLI::ExistingFile);
  app.add_option("--rows", o.rows, "trace rows replayed (from the first)")
      ->check(CLI::Range(1, 1'000'000))
      ->capture_default_str();
  app.add_flag("--sim-inherits-priority", o.sim_inherits_priority,
               "run the simulator at this process's scheduling priority (by default it runs at "
               "normal priority, as a server on another machine would not compete with the "
               "client)");
  CLI11_PARSE(app, argc, argv);
  raise_file_limit();
  // A trace's 12K-token prompts take the modelled engine far longer to prefill than the short
  // prompts of the rate mode: model time runs faster, so the run is not spent waiting on a queue
  // (what is measured is when the client sends).
  if (!o.speedups.empty() && app.count("--sim-set") == 0)
    std::replace(o.sim_sets.begin(), o.sim_sets.end(), std::string("time_scale=0.05"),
                 std::string("time_scale=0.002"));

  lb::bench::SimProcess sim;
  std::string error;
  std::vector<std::string> sim_args = {"--profile", o.profile};
  for (const std::string& set : o.sim_sets) {
    sim_args.push_back("--set");
    sim_args.push_back(set);
  }
  if (!sim.start(o.sim, sim_args, &error, !o.sim_inherits_priority)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  const fs::path dir = fs::temp_directory_path() / ("lb-open-loop-" + std::to_string(getpid()));
  fs::create_directories(dir);
  if (!o.speedups.empty() && o.trace.empty())
    write_generated_trace(dir / "generated.jsonl", o.rows);
  json out = {{"seconds", o.seconds},
              {"input_tokens", o.input_tokens},
              {"output_tokens", o.output_tokens},
              {"levels", json::array()}};
  if (!o.speedups.empty())
    out = {{"trace", o.trace.empty() ? "generated" : o.trace},
           {"rows", o.rows},
           {"levels", json::array()}};
  if (!o.json)
    std::printf("%8s %5s %9s %9s %9s %9s %6s %9s %7s %11s %9s %9s %11s %11s %10s %8s\n",
                o.speedups.empty() ? "req/s" : "speedup", "runs", "late p50", "late p99",
                "p99 worst", "late max", "late%", "completed", "failed", "done req/s", "TTFT p99",
                "sim done", "sim TTFT99", "sim e2e99", "sim req/s", "sim held");
  for (double rate : o.speedups.empty() ? o.rates : o.speedups) {
    const json j = level(o, rate, sim.port(), dir);
    out["levels"].push_back(j);
    if (o.json || !j.contains("lateness_p99_ms")) continue;
    std::printf(
        "%8.0f %5d %7.3f ms %6.3f ms %6.3f ms %6.2f ms %5.2f%% %9.0f %7.0f %11.1f %6.1f ms %9.0f "
        "<=%6.0f ms <=%6.0f ms %10.1f %8.0f\n",
        rate, j["runs"].get<int>(), j["lateness_p50_ms"].get<double>(),
        j["lateness_p99_ms"].get<double>(), j["lateness_p99_worst_ms"].get<double>(),
        j["lateness_max_ms"].get<double>(), 100 * j["late_share"].get<double>(),
        j["completed"].get<double>(), j["failed"].get<double>(),
        j["completion_rate_req_s"].get<double>(), j["ttft_p99_ms"].get<double>(),
        j["sim_finished"].get<double>(), j["sim_ttft_p99_bound_ms"].get<double>(),
        j["sim_e2el_p99_bound_ms"].get<double>(), j["sim_completion_rate_req_s"].get<double>(),
        j["sim_max_in_engine"].get<double>());
  }
  fs::remove_all(dir);
  if (o.json) std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
