#pragma once
// LaneBench's results as Benchmark Report v0.2, the result format llm-d-benchmark and
// inference-perf agree on (docs/interop.md): one report per lane and phase, with the run's ids,
// the stack (the lane, in standardized and native parts), the load, aggregate statistics with
// their units and the output-rate time series. What the format has no place for (the quality
// evidence: regression counts and causes, the determinism floor, cross-scores, energy and cost)
// goes in results.observability.lanebench, the one block the format leaves open.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::interop {

struct BenchmarkReportFile {
  std::string name;  // a safe file name: "<experiment>.<lane>.<phase>.json"
  nlohmann::json report;
};

struct BenchmarkReports {
  bool ok = false;
  std::string error;
  std::vector<BenchmarkReportFile> files;
};

// `lane`: only that lane's phases (empty = every lane). Reads RUN/summary.json, RUN/plan.json,
// RUN/environment.json and, for the time series, RUN/requests.jsonl. No URL, host, key or path
// of the run is written.
BenchmarkReports export_benchmark_reports(const std::string& run_dir, const std::string& lane = {});

}  // namespace lb::interop
