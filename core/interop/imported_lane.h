#pragma once
// The run-folder form of an imported benchmark: the lane's section of summary.json and its
// requests.jsonl lines, both in the runner's own schema with provenance "imported".
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/interop/imported_benchmark.h"

namespace lb::interop {

struct ImportedLane {
  nlohmann::json section;          // summary.json: experiments[i].lanes[lane_id]
  std::string jsonl;               // requests.jsonl lines, each ending in '\n'
  std::vector<std::string> texts;  // the tool's generated texts, file order (may be empty)
  std::vector<std::string> phases;
  int64_t requests = 0;
};

// Moves the records out of `benchmark`. `file_name` is recorded without any directory.
ImportedLane build_imported_lane(ImportedBenchmark& benchmark, const std::string& lane_id,
                                 const std::string& experiment, const std::string& file_name);

}  // namespace lb::interop
