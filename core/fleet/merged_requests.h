#pragma once
// The shards' requests.jsonl lines as one file, each request's steady-clock stamps moved onto the
// first shard's time line (docs/fleet.md, "Clock correction"), and the per-request values that
// the lanes' comparisons are recomputed from.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/fleet/shard_folder.h"
#include "core/metrics/request_record.h"
#include "core/metrics/summary_intervals.h"

namespace lb::fleet {

using PhaseKey = std::tuple<std::string, std::string, std::string>;  // experiment, lane, phase

using ExperimentLane = std::pair<std::string, std::string>;

struct MergedRequests {
  int64_t lines = 0;
  int64_t unreadable = 0;  // lines that were not a request record: left out
  std::map<PhaseKey, metrics::RequestSamples> samples;  // completed, measured requests
  // The requests of the experiments' lanes that several clients loaded (split), as records on
  // the merged time line, warm-ups included, for their phases' summaries.
  std::map<PhaseKey, std::vector<metrics::RequestRecord>> split_records;
};

// How many ns to add to shard S's t_*_ns stamps to put them on REFERENCE's time line: both read
// as their lanes' servers' wall clock.
int64_t stamp_shift_ns(const ShardFolder& s, const ShardFolder& reference);

// Writes OUT_DIR/requests.jsonl from SHARDS' files (shards[0] is the reference), keeping the
// records of SPLIT's (experiment, lane) pairs. False with *error when a file cannot be read or
// written.
bool merge_request_lines(const std::vector<ShardFolder>& shards, const std::string& out_dir,
                         const std::set<ExperimentLane>& split, MergedRequests& out,
                         std::string* error);

}  // namespace lb::fleet
