#pragma once
// A lane's determinism floor as summary.json records it (docs/determinism.md): for each check
// (repeated passes alone, a batch, decoding load, warm against cold cache) how many prompts'
// greedy answers changed on their own, with the Wilson interval of that rate, and where each
// flipped answer first parted from the reference pass. A determinism experiment keeps one per lane
// ("determinism" in the lane's section); a regression with the "floor" option keeps its
// baseline's ("floor" in the experiment's section). Read tolerantly: a member of another type
// reads as absent (NaN, "" or empty), never a throw.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

// Where a flipped prompt's answer first parted from the reference pass.
struct FlipRecord {
  std::string prompt_id;
  double token_index = NAN;
  std::string reference_token;  // "" where the reference answer ended there
  std::string other_token;
  double margin_nats = NAN;  // the reference's top-1 minus top-2 logprob there
  std::string divergence_class;
};

// A flip rate with its 95 % Wilson interval; NaN where the file did not say.
struct FlipRate {
  double prompts_compared = NAN;
  double flips = NAN;
  double rate = NAN;
  double lo = NAN, hi = NAN;
  bool interval_known() const { return std::isfinite(lo) && std::isfinite(hi); }
};

struct FloorCheck {
  std::string name;  // "repeatability", "batch", "decode_load", "cache"
  // False for a check that was not counted (skipped, or vacuous): then only its status says why.
  bool counted = false;
  FlipRate rate;
  // How it was run, by check: passes at concurrency 1; the batch's concurrency; the decoding
  // streams beside it; the cache reset endpoint.
  double passes = NAN, concurrency = NAN, streams = NAN;
  std::string reset_endpoint;
  std::string status, note;
  std::vector<FlipRecord> flipped;
};

struct DeterminismFloor {
  std::string lane;                 // a regression's baseline; "" in a determinism lane section
  std::vector<FloorCheck> checks;   // in the order above, those the file has
  std::vector<std::string> counts;  // the checks the combined floor counts
  FlipRate floor;                   // any check flipped: the floor candidates are judged against
};

// The check names in the order a floor lists them.
const std::vector<std::string>& floor_check_names();

// A "determinism" or "floor" object; nullopt when it is not an object. The record reads them
// (LaneRecord::determinism_floor, ExperimentSection::determinism_floor).
std::optional<DeterminismFloor> read_determinism_floor(const nlohmann::json& floor);

}  // namespace lb::record
