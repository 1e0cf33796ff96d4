// lanebench-bench-bigrun: makes the run folder of a long run (1,000,000 requests over three lanes
// and a 2,000-prompt regression by default) and measures, each in a child process of its own, how
// long the workbench takes to reopen it, build its report and open its review, and the peak
// resident set of each. Figures in docs/benchmarks.md, section "Big run".
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "bigrun_folder.h"
#include "bigrun_steps.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr double kRssBarMb = 1500;       // "under 1.5 GB resident", MB = 10^6 bytes
constexpr double kReportRssBarMb = 400;  // a report holds a digest of the requests, not them

struct Options {
  lb::bench::BigRunConfig config;
  std::string dir;  // make / measure: the run folder
  std::string tmp;  // default mode: where the temporary folder goes
  int runs = 1;
  bool json_out = false;
  bool enforce = false;
  bool keep = false;
  std::vector<std::string> steps = lb::bench::step_names();
};

double bar_seconds(const std::string& step) {
  return step == "reopen" ? 3.0 : step == "report" ? 10.0 : 1.0;
}

double bar_rss_mb(const std::string& step) {
  return step == "report" ? kReportRssBarMb : kRssBarMb;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

json folder_sizes(const std::string& dir) {
  json sizes = json::object();
  int64_t total = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    const auto bytes = static_cast<int64_t>(it->file_size());
    total += bytes;
    sizes[fs::relative(it->path(), dir).string()] = bytes;
  }
  return {{"total_bytes", total}, {"files", sizes}};
}

json make_folder(const std::string& dir, const Options& o) {
  if (!o.json_out) std::cerr << "making " << dir << " ...\n";
  return lb::bench::run_in_fork([&] {
    const lb::bench::BigRunMade made = lb::bench::make_big_run(dir, o.config);
    if (!made.ok) return json{{"ok", false}, {"error", made.error}};
    return json{{"ok", true},
                {"requests", made.requests_written},
                {"failed_requests", made.failed_requests},
                {"events", made.events_written},
                {"make_s", made.elapsed_s},
                {"size", folder_sizes(dir)}};
  });
}

// Every step RUNS times; a failed run ends the step's measurement.
json measure(const std::string& dir, const Options& o, int64_t expected_requests) {
  json steps = json::array();
  for (const std::string& step : o.steps) {
    std::vector<double> seconds, rss;
    json step_json = {{"step", step}, {"ok", true}, {"runs", json::array()}};
    for (int i = 0; i < o.runs; ++i) {
      if (!o.json_out) std::cerr << step << " run " << i + 1 << "/" << o.runs << " ...\n";
      const lb::bench::StepRun r = lb::bench::run_step_in_child(step, dir);
      step_json["runs"].push_back(
          {{"seconds", r.seconds}, {"peak_rss_mb", r.peak_rss_mb}, {"detail", r.detail}});
      if (step == "reopen" && r.ok && expected_requests >= 0 &&
          r.detail.value("requests", int64_t{-1}) != expected_requests) {
        step_json["ok"] = false;
        step_json["error"] = "loaded " + r.detail.value("requests", json()).dump() +
                             " requests, expected " + std::to_string(expected_requests);
        break;
      }
      if (!r.ok) {
        step_json["ok"] = false;
        step_json["error"] = r.error;
        break;
      }
      seconds.push_back(r.seconds);
      rss.push_back(r.peak_rss_mb);
    }
    step_json["median_s"] = median(seconds);
    step_json["median_peak_rss_mb"] = median(rss);
    step_json["bar_s"] = bar_seconds(step);
    step_json["bar_rss_mb"] = bar_rss_mb(step);
    step_json["time_pass"] = step_json["ok"] == true && median(seconds) < bar_seconds(step);
    step_json["rss_pass"] = step_json["ok"] == true && median(rss) < bar_rss_mb(step);
    steps.push_back(step_json);
  }
  return steps;
}

void print_table(const json& result) {
  if (result.contains("make")) {
    const json& m = result["make"];
    std::printf("folder: %lld requests (%lld failed), %lld events, %.1f MB, made in %.1f s\n",
                m["requests"].get<long long>(), m["failed_requests"].get<long long>(),
                m["events"].get<long long>(), m["size"]["total_bytes"].get<double>() / 1e6,
                m["make_s"].get<double>());
  }
  std::printf("%-7s %4s %10s %7s %-5s %13s %8s %-5s\n", "step", "runs", "median s", "bar s", "time",
              "peak RSS MB", "bar MB", "RSS");
  for (const json& s : result["steps"]) {
    if (s["ok"] != true) {
      std::printf("%-7s FAILED: %s\n", s["step"].get<std::string>().c_str(),
                  s.value("error", std::string()).c_str());
      continue;
    }
    std::printf("%-7s %4zu %10.3f %7.0f %-5s %13.0f %8.0f %-5s\n",
                s["step"].get<std::string>().c_str(), s["runs"].size(), s["median_s"].get<double>(),
                s["bar_s"].get<double>(), s["time_pass"] == true ? "PASS" : "FAIL",
                s["median_peak_rss_mb"].get<double>(), s["bar_rss_mb"].get<double>(),
                s["rss_pass"] == true ? "PASS" : "FAIL");
  }
}

// 0: measured (bars not enforced); 1: a step failed, or a bar failed with --enforce.
int finish(const json& result, const Options& o) {
  bool steps_ok = true, bars_ok = true;
  for (const json& s : result["steps"]) {
    steps_ok = steps_ok && s["ok"] == true;
    bars_ok = bars_ok && s["time_pass"] == true && s["rss_pass"] == true;
  }
  if (o.json_out)
    std::cout << result.dump(2) << '\n';
  else
    print_table(result);
  return !steps_ok || (o.enforce && !bars_ok) ? 1 : 0;
}

int run_default(const Options& o) {
  const fs::path base = o.tmp.empty() ? fs::temp_directory_path() : fs::path(o.tmp);
  std::string pattern = (base / "lanebench-bigrun-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) {
    std::cerr << "cannot make a folder under " << base << "\n";
    return 1;
  }
  const std::string dir = pattern + "/run";
  json result;
  result["make"] = make_folder(dir, o);
  int code = 1;
  if (result["make"]["ok"] != true) {
    std::cerr << "making the folder failed: " << result["make"]["error"].get<std::string>() << "\n";
  } else {
    result["steps"] = measure(dir, o, result["make"]["requests"].get<int64_t>());
    code = finish(result, o);
  }
  std::error_code ec;
  if (o.keep)
    std::cerr << "kept " << dir << "\n";
  else
    fs::remove_all(pattern, ec);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "step")
    return lb::bench::run_step_here(argv[2], argv[3]);
  Options o;
  CLI::App app{
      "lanebench-bench-bigrun: the workbench on a long run's folder. Makes a run folder of N "
      "requests over three lanes plus a regression's texts and review, then measures reopening it "
      "(Runs page), building its report and opening its review, each in a fresh child process "
      "(wall time, peak RSS), against the bars 3 s, 10 s, 1 s and 1.5 GB (400 MB for the report). "
      "This is a measurement: "
      "it exits 0 whatever the figures, unless --enforce is given (then 1 when a bar fails); 1 "
      "when a step itself fails, 2 on bad options."};
  app.add_option("--requests", o.config.requests,
                 "requests.jsonl lines (rounded down to whole "
                 "levels)")
      ->check(CLI::PositiveNumber);
  app.add_option("--prompts", o.config.prompts, "regression prompts (answered on two lanes)")
      ->check(CLI::PositiveNumber);
  app.add_option("--seed", o.config.seed, "generator seed");
  app.add_option("--runs", o.runs, "measurements per step (medians reported)")
      ->check(CLI::Range(1, 100));
  app.add_option("--tmp", o.tmp, "where the temporary folder goes (default: the temp dir)");
  app.add_option("--steps", o.steps, "steps to measure (default: reopen report review)")
      ->check(CLI::IsMember(lb::bench::step_names()))
      ->delimiter(',');
  app.add_flag("--keep", o.keep, "keep the temporary folder");
  app.add_flag("--json", o.json_out, "figures as JSON on stdout");
  app.add_flag("--enforce", o.enforce, "exit 1 when a bar fails");
  CLI::App* make = app.add_subcommand("make", "only make the folder DIR");
  make->add_option("dir", o.dir, "run folder to write (new or empty)")->required();
  CLI::App* measure_cmd = app.add_subcommand("measure", "only measure an existing folder DIR");
  measure_cmd->add_option("dir", o.dir, "run folder")->required()->check(CLI::ExistingDirectory);
  app.require_subcommand(0, 1);
  make->fallthrough();  // the options above may follow the sub-command
  measure_cmd->fallthrough();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (*make) {
    const json made = make_folder(o.dir, o);
    std::cout << made.dump(2) << '\n';
    return made["ok"] == true ? 0 : 1;
  }
  if (*measure_cmd) return finish(json{{"steps", measure(o.dir, o, -1)}}, o);
  return run_default(o);
}
