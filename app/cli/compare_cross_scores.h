#pragma once
// The teacher-forced cross-scores a run stored for a lane pair (tokens.json, or
// tokens.<B>.json with several candidates), when A and B are the baseline and a candidate of
// the same run folder: the compare command prints them under each pair and adds them to --json.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace lb::cli {

struct StoredCrossScores {
  nlohmann::json totals;    // {"candidate_under_baseline": {...}, "baseline_under_candidate": ...}
  nlohmann::json per_pair;  // array, per prompt index: that pair's cross_score or null
};

// texts_a / texts_b: the resolved texts files; name_a / name_b: the lanes' names.
std::optional<StoredCrossScores> load_cross_scores(const std::string& texts_a,
                                                   const std::string& name_a,
                                                   const std::string& texts_b,
                                                   const std::string& name_b);

// "  cross-scores: B read by A top-1 0.9876 ..., A read by B ..." for one pair; nothing when the
// pair has none.
void print_pair_cross_scores(const nlohmann::json& pair_cross);
// The totals of both directions, or why they are unsupported.
void print_cross_score_totals(const nlohmann::json& totals);

}  // namespace lb::cli
