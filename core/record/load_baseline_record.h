#pragma once
// A regression lane's greedy A/A baseline under load, as summary.json records it
// ("load_baseline" in the lane's section): how many of the lane's own answers changed when the
// same prompts ran at the load concurrency, and which prompts. The engine fills it and to_json
// writes it; read tolerantly: a member of another type reads as absent (NaN, "" or nullopt),
// never a throw.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

struct BatchVariantPrompt {
  int64_t index = -1;  // in the prompt set; -1 when not recorded
  std::string id;
  std::string triage;  // "near_identical", "divergent", ...
  double ratio = NAN;  // difflib ratio of the two answers
};

struct LoadBaselineRecord {
  double concurrency = NAN;           // the load the prompts ran again at
  double baseline_concurrency = NAN;  // the regression's own
  double prompts_compared = NAN;
  double mismatches = NAN;
  double mismatch_rate = NAN;  // NaN when no prompt could be compared
  std::optional<std::pair<double, double>> mismatch_rate_interval;  // Wilson, 95 %
  std::string interval_method;                                      // "Wilson score, 95 %"
  std::string texts_file;                         // the answers under load, in the run folder
  std::vector<BatchVariantPrompt> batch_variant;  // in the file's order; non-objects left out
  std::vector<int64_t> failed_prompts;            // a request failed on either side: not compared
};

// A lane's "load_baseline" object; nullopt when it is not an object.
std::optional<LoadBaselineRecord> read_load_baseline(const nlohmann::json& load_baseline);
nlohmann::json to_json(const LoadBaselineRecord& load_baseline);

}  // namespace lb::record
