#pragma once
// A speculative-decoding experiment on one lane, as summary.json records it ("speculative" in
// the lane's section, one object per concurrency level, docs/metrics.md): decode rate, tokens per
// streamed event, the server's acceptance counters and the speed-up over the lane that drafted
// nothing. Read tolerantly: a member of another type reads as absent (NaN or empty), never a
// throw.
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

struct SpeculativeLevelRecord {
  std::string level;  // "c1", "c8", ...: the name of the level's phase
  double concurrency = NAN;
  double completed = NAN;
  double output_tok_s = NAN;
  double decode_tok_s_median = NAN;
  double itl_ms_median = NAN;
  double tokens_per_event_mean = NAN;
  double acceptance_rate = NAN;                 // from the server's counters around the level
  double acceptance_length = NAN;               // 1 + accepted / drafts
  std::vector<double> acceptance_per_position;  // share accepted at draft position 1, 2, ...
  double decode_speedup = NAN;                  // against the baseline lane's same level
  double output_tok_s_gain = NAN;
};

// A lane's "speculative" object, its levels by concurrency (c1, c4, c16), any other names after
// them; entries that are not objects are left out.
std::vector<SpeculativeLevelRecord> read_speculative(const nlohmann::json& speculative);

}  // namespace lb::record
