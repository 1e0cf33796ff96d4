#pragma once
// A generated run folder of a long run, written with the run layer's own writers so every file
// has exactly the format a real run gives it:
//
// - plan.json (resolved plan), environment.json, summary.json (per-phase summaries, concurrency
//   sweeps, the regression's comparison), requests.jsonl (record::RunFolderWriter: metrics::to_json
//   of each record), texts/<lane>.texts.json and review.json (triage_lane_pairs), and a reviewer's
//   verdicts on part of the pairs (compare::save_review).
// - A throughput experiment over three lanes (bf16, fp8, fp8-mtp3) at four closed-loop
//   concurrency levels, one warm-up per level, 1024 prompt and 64 output tokens per request.
//   bf16 and fp8 stream one token per event (64 events); fp8-mtp3 streams 1-4 tokens per event
//   (three drafts accepted with 0.9, 0.75, 0.6: about 22 events). About 0.1 % of requests fail
//   (HTTP 503 before the stream, or a stream cut short).
// - A regression experiment: a generated prompt set of fact-checked prompts, answered on bf16 and
//   fp8 (one event per token, up to 256 tokens), most pairs identical, some near-identical, some
//   divergent, a few with a flipped fact.
// Deterministic for a seed, apart from the wall-clock timestamps of summary.json and
// environment.json.
#include <cstdint>
#include <string>

namespace lb::bench {

struct BigRunConfig {
  int64_t requests = 1'000'000;  // requests.jsonl lines, rounded down to whole levels
  int64_t prompts = 2'000;       // regression prompts, answered on two lanes
  uint64_t seed = 7;
};

// How a request count splits over the experiments.
struct BigRunShape {
  int64_t lanes = 3;
  int64_t levels = 4;
  int64_t warmups_per_level = 1;
  int64_t measured_per_level = 0;
  int64_t regression_requests = 0;
  int64_t total_requests() const {
    return lanes * levels * (warmups_per_level + measured_per_level) + regression_requests;
  }
};

// Empty error when the request count leaves at least one measured request per level.
BigRunShape shape_of(const BigRunConfig& config, std::string* error);

struct BigRunMade {
  bool ok = false;
  std::string error;
  int64_t requests_written = 0;
  int64_t failed_requests = 0;
  int64_t events_written = 0;
  double elapsed_s = 0;
};

// Writes the folder into DIR, which must not exist yet or be empty.
BigRunMade make_big_run(const std::string& dir, const BigRunConfig& config);

}  // namespace lb::bench
