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
  double index = NAN;           // the prompt's place in its set
  double unique_outputs = NAN;  // distinct answers over the passes
  double token_index = NAN;     // NaN where the passes had no tokens to compare
  double char_offset = NAN;     // in the reference answer
  std::string reference_token;  // "" where the reference answer ended there
  std::string other_token;
  double margin_nats = NAN;  // the reference's top-1 minus top-2 logprob there
  std::string divergence_class;
  std::string reason;  // the class in words
};

// A prompt left out of a check because a pass failed it.
struct PromptRef {
  double index = NAN;
  std::string id;
};

// The long decodes the decode-load check's prompts ran beside.
struct BackgroundLoadRecord {
  double streams = NAN;
  double max_tokens = NAN;
  double completed = NAN;
  double failed = NAN;
  // False when every background request failed: the prompts may have run alone.
  bool loaded() const { return !(failed > 0) || completed > 0; }
};

// The server's prefix-cache hit counters over the cache check's cold and warm passes.
struct CachedTokensRecord {
  double cold = NAN;
  double warm = NAN;
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
  double reference_concurrency = NAN;
  std::string reset_endpoint;
  std::optional<bool> cache_reset_before_each;  // repeatability: every pass began cold
  std::optional<BackgroundLoadRecord> background;
  std::optional<CachedTokensRecord> cached_tokens;  // the cache check, once both passes ran
  std::string status, note;
  std::vector<PromptRef> failed_prompts;
  std::vector<FlipRecord> flipped;
};

struct DeterminismFloor {
  std::string lane;                 // a regression's baseline; "" in a determinism lane section
  std::vector<FloorCheck> checks;   // in the order above, those the file has
  std::vector<std::string> counts;  // the checks the combined floor counts
  FlipRate floor;                   // any check flipped: the floor candidates are judged against
  std::vector<double> flipped_prompts;  // the floor's flipped prompts, by index
  std::string answers_file;             // every pass's answers, in the run folder
};

// The check names in the order a floor lists them.
const std::vector<std::string>& floor_check_names();

// A "determinism" or "floor" object; nullopt when it is not an object. The record reads them
// (LaneRecord::determinism_floor, ExperimentSection::determinism_floor).
std::optional<DeterminismFloor> read_determinism_floor(const nlohmann::json& floor);
// A rate as its flips, prompts compared, rate and Wilson interval (null with nothing compared).
nlohmann::json to_json(const FlipRate& rate);
nlohmann::json to_json(const FloorCheck& check);
nlohmann::json to_json(const DeterminismFloor& floor);

}  // namespace lb::record
