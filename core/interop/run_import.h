#pragma once
// Writes an imported benchmark into a run folder as lane "imported:<name>": either a new run
// folder (plan.json, environment.json, requests.jsonl, summary.json) or one more lane in an
// existing run's experiment. requests.jsonl lines use the runner's schema; summary.json gets the
// lane's phases summarised by LaneBench's own definitions, the tool's own aggregates beside them
// ("reported"), and the provenance "imported" with the tool, its version and the file's name.
#include <cstdint>
#include <string>
#include <vector>

#include "core/interop/imported_benchmark.h"

namespace lb::interop {

struct ImportOptions {
  std::string file;  // the tool's result file
  ImportFormat format = ImportFormat::Auto;
  std::string out_dir;     // a new run folder (must not exist or be empty) ...
  std::string into_dir;    // ... or an existing run folder
  std::string lane_name;   // lane id becomes "imported:<lane_name>"; default: the format name
  std::string experiment;  // --into: the experiment to join; default: its only throughput one
};

struct ImportOutcome {
  int exit_code = 0;  // 0 ok, 2 input error
  std::string error;
  std::string lane_id;
  std::string experiment;
  std::string tool;
  std::vector<std::string> phases;
  int64_t requests = 0;
};

ImportOutcome import_into_run(const ImportOptions& options);

// "imported:<name>" for a name of letters, digits, '.', '-' and '_'; empty when not valid.
std::string imported_lane_id(const std::string& name);

}  // namespace lb::interop
