#pragma once
// The three things a person does with a big run folder, each measured in a child process of its
// own so its peak resident set (getrusage of the child) is the step's alone:
//   reopen: ui::load_run, what the Runs page loads (folder, chart series, decision view);
//   report: ui::export_report with every format, what the workbench's report export writes;
//   review: open_review_source, load_pair and review_rows for the run's first lane pair, what the
//           Review page does before it shows the pairs.
// The child reports its step's wall time and a few counts as one JSON object on stdout.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::bench {

const std::vector<std::string>& step_names();  // "reopen", "report", "review"

// Runs STEP on DIR in this process and prints its JSON result; the child's entry point. Returns
// the process's exit code (0 when the step succeeded).
int run_step_here(const std::string& step, const std::string& dir);

struct StepRun {
  bool ok = false;
  std::string error;
  double seconds = 0;      // wall time of the step inside the child
  double peak_rss_mb = 0;  // the child's ru_maxrss, MB (10^6 bytes)
  nlohmann::json detail;   // counts the step reported (requests loaded, files written, ...)
};

// Runs STEP on DIR in a fresh child (this program re-executed) and waits for it.
StepRun run_step_in_child(const std::string& step, const std::string& dir);

// Runs FN in a forked child and returns what it returned. A step child's ru_maxrss includes
// what it shared with this process until exec, so the folder is made in a child too and this
// process stays small.
nlohmann::json run_in_fork(const std::function<nlohmann::json()>& fn);

}  // namespace lb::bench
