#pragma once
// LaneBench's results in the result-file shape `vllm bench serve --save-result --save-detailed`
// writes, one object per (experiment, lane, phase), so tools that read vLLM results read ours:
// the same key names and units (aggregates in ms, per-request ttfts/itls/latencies in seconds,
// request_rate "inf" for closed loops, spec_decode_acceptance_rate in percent). Several objects
// are written one per line, as vLLM's --append-result does.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::interop {

struct VllmExport {
  bool ok = false;
  std::string error;
  std::vector<nlohmann::json> results;
};

// `lane`: only that lane's phases (empty = every lane). Reads RUN/summary.json and, for the
// per-request arrays, RUN/requests.jsonl.
VllmExport export_vllm_results(const std::string& run_dir, const std::string& lane = {});

// One object as pretty JSON; several as one compact object per line.
std::string format_vllm_export(const std::vector<nlohmann::json>& results);

}  // namespace lb::interop
