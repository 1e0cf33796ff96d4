// lanebench-bench-split-lane: one trace replayed open loop against one lanebench-sim server, sent
// by 1 client and by a split lane of K clients (by default a load of about 10,000 open streams)
// (docs/fleet.md, "A split lane"), each client its own lanebench-cli process as on its own machine;
// the K clients' shards are merged with lanebench-cli merge. Reports, from the (merged) run: the
// send rate reached (requests sent over the span of their send stamps), the lateness p50 / p99 /
// max and the share sent over 10 ms late (the trace lane's "schedule"), and the requests completed.
// Each figure is the median over
// --runs; --json prints them as one JSON object.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim_process.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Options {
  // Each request streams its output_tokens at the simulator's decode rate (1 token a second of
  // model time): at 2,500 requests a second about 10,000 streams are open after 4 s, more than
  // one process may hold on a machine whose descriptor limit is 20,000 (a client keeps a third
  // of it for transfers), and few enough events a second that the CPU is not what limits.
  std::vector<double> rates = {2500};
  std::vector<int> clients = {1, 4};
  double seconds = 4;
  int output_tokens = 4;
  int runs = 3;
  std::vector<std::string> sim_sets = {"time_scale=1",           "decode_tok_s=1",
                                       "max_num_seqs=100000",    "batch_slowdown=0",
                                       "prefill_interference=0", "prefill_tok_s=200000",
                                       "prefix_caching=false",   "max_num_batched_tokens=10000000"};
  std::string sim = LANEBENCH_SIM_PROGRAM;
  std::string cli = LANEBENCH_CLI_PROGRAM;
  bool json = false;
};

struct Figures {
  double send_rate = 0, p50_ms = 0, p99_ms = 0, max_ms = 0, late_share = 0, completed = 0;
  double failed = 0;
};

// Starts PROGRAM ARGS with its output to LOG; the child's pid, or -1.
pid_t spawn(const std::string& program, const std::vector<std::string>& args,
            const std::string& log) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  if (posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  if (pid <= 0 || waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// One request every 1/rate s, short prompts and outputs (Mooncake timestamps are ms).
void write_trace(const fs::path& path, double rate, double seconds, int output_tokens) {
  std::ofstream out(path);
  const auto count = static_cast<int64_t>(rate * seconds);
  for (int64_t i = 0; i < count; ++i)
    out << json{{"timestamp", static_cast<double>(i) * 1000.0 / rate},
                {"input_length", 32},
                {"output_length", output_tokens}}
               .dump()
        << "\n";
}

void write_plan(const fs::path& path, int port, int clients) {
  json plan = {
      {"name", "split-lane-bench"},
      {"lanes",
       {{{"id", "lane"}, {"base_url", "http://127.0.0.1:" + std::to_string(port) + "/v1"}}}},
      {"experiments", {{{"kind", "trace"}, {"path", "trace.jsonl"}}}}};
  if (clients > 1) plan["split"] = {{"lane", "lane"}, {"clients", clients}};
  std::ofstream(path) << plan.dump(2);
}

// The run's figures: its trace lane's schedule, and the send rate from its request lines.
bool read_figures(const fs::path& run, Figures& f) {
  std::ifstream in(run / "summary.json");
  const json summary = json::parse(in, nullptr, false);
  if (!summary.is_object()) return false;
  const json& lane = summary["experiments"][0]["lanes"]["lane"];
  const json& schedule = lane["schedule"];
  f.p50_ms = schedule.value("lateness_p50_ms", 0.0);
  f.p99_ms = schedule.value("lateness_p99_ms", 0.0);
  f.max_ms = schedule.value("lateness_max_ms", 0.0);
  f.late_share = schedule.value("late_share", 0.0);
  f.completed = lane["phases"]["trace"].value("completed", 0.0);
  f.failed = lane["phases"]["trace"].value("failed", 0.0);
  int64_t first = 0, last = 0, sent = 0;
  std::ifstream lines(run / "requests.jsonl");
  for (std::string line; std::getline(lines, line);) {
    const json l = json::parse(line, nullptr, false);
    if (!l.is_object() || l.value("warmup", false) || l.value("t_sent_ns", int64_t{0}) <= 0)
      continue;
    const int64_t t = l["t_sent_ns"].get<int64_t>();
    first = sent == 0 ? t : std::min(first, t);
    last = std::max(last, t);
    ++sent;
  }
  f.send_rate = last > first ? static_cast<double>(sent - 1) * 1e9 / double(last - first) : 0;
  return true;
}

// One replay by CLIENTS clients into DIR; false when a client or the merge failed.
bool replay(const Options& o, int port, int clients, const fs::path& dir, Figures& f) {
  write_plan(dir / "plan.json", port, clients);
  const std::string plan = (dir / "plan.json").string();
  if (clients == 1) {
    // Exit 1: the run finished with failed requests (they are counted).
    const int exit = wait_for(
        spawn(o.cli, {"run", plan, "--out", (dir / "run").string()}, (dir / "run.log").string()));
    if (exit != 0 && exit != 1) return false;
    return read_figures(dir / "run", f);
  }
  std::vector<pid_t> pids;
  std::vector<std::string> merge = {"merge"};
  fs::create_directories(dir / "shards");
  for (int k = 0; k < clients; ++k) {
    const std::string shard = (dir / "shards" / ("shard-" + std::to_string(k))).string();
    pids.push_back(spawn(
        o.cli,
        {"run", plan, "--shard", std::to_string(k) + "/" + std::to_string(clients), "--out", shard},
        shard + ".log"));
    merge.push_back(shard);
  }
  bool ok = true;
  for (pid_t pid : pids) {
    const int exit = wait_for(pid);
    ok = (exit == 0 || exit == 1) && ok;
  }
  merge.insert(merge.end(), {"--out", (dir / "run").string(), "--blockers-ok"});
  const int merged = wait_for(spawn(o.cli, merge, (dir / "merge.log").string()));
  ok = ok && (merged == 0 || merged == 1);
  return ok && read_figures(dir / "run", f);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"A trace replayed by one client and by a split lane of several clients"};
  app.add_option("--rate", o.rates, "requests a second of the trace (repeatable)");
  app.add_option("--clients", o.clients, "clients of the lane (repeatable; 1 = no split)");
  app.add_option("--seconds", o.seconds, "length of the trace")->check(CLI::PositiveNumber);
  app.add_option("--runs", o.runs, "repetitions; each figure is their median")
      ->check(CLI::Range(1, 100));
  app.add_option("--output-tokens", o.output_tokens, "tokens each request streams")
      ->check(CLI::Range(1, 4096));
  app.add_option("--sim-set", o.sim_sets, "the simulator's settings, key=value (repeatable)");
  app.add_flag("--json", o.json, "print the figures as JSON");
  CLI11_PARSE(app, argc, argv);
  const fs::path root = fs::temp_directory_path() / ("lb-split-bench-" + std::to_string(getpid()));
  std::string error;
  lb::bench::SimProcess sim;
  std::vector<std::string> sim_args = {"--profile", "fp8"};
  for (const auto& set : o.sim_sets) sim_args.insert(sim_args.end(), {"--set", set});
  if (!sim.start(o.sim, sim_args, &error)) {
    std::fprintf(stderr, "lanebench-bench-split-lane: %s\n", error.c_str());
    return 2;
  }
  json out = json::array();
  if (!o.json)
    std::printf(
        "| req/s | clients | send req/s | late p50 ms | late p99 ms | late max ms | "
        "late > 10 ms | completed | failed |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (double rate : o.rates) {
    for (int clients : o.clients) {
      std::vector<Figures> runs;
      for (int r = 0; r < o.runs; ++r) {
        const fs::path dir = root / ("r" + std::to_string(int(rate)) + "-k" +
                                     std::to_string(clients) + "-" + std::to_string(r));
        fs::create_directories(dir);
        write_trace(dir / "trace.jsonl", rate, o.seconds, o.output_tokens);
        Figures f;
        if (!replay(o, sim.port(), clients, dir, f)) {
          std::fprintf(stderr, "lanebench-bench-split-lane: a run failed; see %s\n", dir.c_str());
          return 1;
        }
        std::fprintf(stderr, "rate %g clients %d run %d: send %.0f req/s, p99 %.2f ms\n", rate,
                     clients, r, f.send_rate, f.p99_ms);
        runs.push_back(f);
        fs::remove_all(dir);
      }
      auto med = [&](double Figures::*field) {
        std::vector<double> v;
        for (const auto& f : runs) v.push_back(f.*field);
        return median(v);
      };
      const json row = {{"rate", rate},
                        {"clients", clients},
                        {"send_rate", med(&Figures::send_rate)},
                        {"lateness_p50_ms", med(&Figures::p50_ms)},
                        {"lateness_p99_ms", med(&Figures::p99_ms)},
                        {"lateness_max_ms", med(&Figures::max_ms)},
                        {"late_share", med(&Figures::late_share)},
                        {"completed", med(&Figures::completed)},
                        {"failed", med(&Figures::failed)}};
      out.push_back(row);
      if (!o.json)
        std::printf("| %.0f | %d | %.0f | %.3f | %.2f | %.1f | %.2f %% | %.0f | %.0f |\n", rate,
                    clients, row["send_rate"].get<double>(), row["lateness_p50_ms"].get<double>(),
                    row["lateness_p99_ms"].get<double>(), row["lateness_max_ms"].get<double>(),
                    100 * row["late_share"].get<double>(), row["completed"].get<double>(),
                    row["failed"].get<double>());
    }
  }
  if (o.json) std::printf("%s\n", out.dump(2).c_str());
  fs::remove_all(root);
  return 0;
}
