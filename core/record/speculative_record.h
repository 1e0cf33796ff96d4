#pragma once
// A speculative-decoding experiment on one lane, as summary.json records it ("speculative" in
// the lane's section, one object per concurrency level, docs/metrics.md): decode rate, tokens per
// streamed event, the server's acceptance counters and the speed-up over the lane that drafted
// nothing. Read tolerantly: a member of another type reads as absent (NaN or empty), never a
// throw.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

// One distribution over a level's requests, as the summary gives it.
struct LevelDistribution {
  int64_t count = 0;
  double median = NAN, p90 = NAN, p99 = NAN, mean = NAN, min = NAN, max = NAN;
};

// The server's acceptance of drafted tokens around a level: from its counters (drafts as the
// counter reads, the share accepted at each draft position) or from the answers' usage.
struct AcceptanceRecord {
  double drafts = NAN;
  double acceptance_rate = NAN;      // accepted / draft tokens
  double acceptance_length = NAN;    // 1 + accepted / drafts
  std::vector<double> per_position;  // counters only: share accepted at position 1, 2, ...
};

struct SpeculativeLevelRecord {
  std::string level;  // "c1", "c8", ...: the name of the level's phase
  double concurrency = NAN;
  double completed = NAN;
  double output_tok_s = NAN;
  std::optional<LevelDistribution> decode_tok_s;  // nullopt: no request gave one
  std::optional<LevelDistribution> itl_ms;
  std::optional<LevelDistribution> tokens_per_event;
  std::optional<AcceptanceRecord> acceptance;        // the server's counters around the level
  std::optional<AcceptanceRecord> usage_acceptance;  // the answers' usage, where it reports it
  std::string baseline_lane;                         // "" until compared with a baseline
  double decode_speedup = NAN;                       // against the baseline lane's same level
  double output_tok_s_gain = NAN;

  double decode_tok_s_median() const { return decode_tok_s ? decode_tok_s->median : NAN; }
  double itl_ms_median() const { return itl_ms ? itl_ms->median : NAN; }
  double tokens_per_event_mean() const { return tokens_per_event ? tokens_per_event->mean : NAN; }
  double acceptance_rate() const { return acceptance ? acceptance->acceptance_rate : NAN; }
  double acceptance_length() const { return acceptance ? acceptance->acceptance_length : NAN; }
  const std::vector<double>& acceptance_per_position() const;
};

// A lane's "speculative" object, its levels by concurrency (c1, c4, c16), any other names after
// them; entries that are not objects are left out.
std::vector<SpeculativeLevelRecord> read_speculative(const nlohmann::json& speculative);
// The lane's "speculative" object: one member per level, by its name.
nlohmann::json to_json(const std::vector<SpeculativeLevelRecord>& levels);

}  // namespace lb::record
