#pragma once
// A small real run folder for the UI tests of stored runs: a plan on two in-process simulator
// lanes (regression, throughput, two functional gates, a two-size context sweep) run by the
// engine into a folder, and a copy of it cut short the way a kill leaves one.
#include <QString>
#include <nlohmann/json.hpp>

namespace lb::test {

// Runs the plan into run_dir (which must not exist yet); fails the test when it cannot start.
void run_small_plan(const QString& run_dir);
// Runs any plan into run_dir the same way.
void run_plan_json(const QString& run_dir, const nlohmann::json& plan);
// Copies run_dir to copy_dir, deletes summary.json and cuts requests.jsonl in the middle of its
// last line. Returns the number of whole request lines left.
int make_interrupted_copy(const QString& run_dir, const QString& copy_dir);
// Per lane, the requests.jsonl lines a TTFT chart plots (ok, not warm-up, TTFT known), and the
// context-sweep lines among them.
int count_ttft_points(const QString& run_dir, const QString& lane, bool context_sweep_only = false);

}  // namespace lb::test
