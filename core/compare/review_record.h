#pragma once
// review.json: the record of the regression check's side-by-side review. One entry per prompt
// pair with its ratio, triage, fact-check results on both lanes, the reviewer's verdict and note,
// and when the verdict was given. The regression passes when no pair is a blocker and no pair that
// requires review (divergent, or a candidate flipped fact) is left unreviewed.
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/compare/pair_comparison.h"

namespace lb::compare {

enum class Verdict { Unreviewed, Identical, BenignDrift, MaterialDifference, Blocker };
// "unreviewed", "identical", "benign_drift", "material_difference", "blocker"
const char* verdict_name(Verdict verdict);
std::optional<Verdict> verdict_from_name(std::string_view name);

using SystemTime = std::chrono::system_clock::time_point;
// ISO 8601 UTC with seconds, e.g. "2026-11-29T21:45:59Z".
std::string format_iso8601_utc(SystemTime time);
std::optional<SystemTime> parse_iso8601_utc(std::string_view text);

struct PairReview {
  PairComparison comparison;
  Verdict verdict = Verdict::Unreviewed;
  std::string note;
  std::optional<SystemTime> reviewed_at;  // set when a reviewer gives the verdict
  // Lanes whose own greedy answer to this prompt changed under load (the regression's
  // load_baseline): batching alone moves them, so a difference here is not the configuration's.
  std::vector<std::string> batch_variant;
};

struct ReviewOutcome {
  bool passed = false;
  std::size_t blockers = 0;             // verdict blocker
  std::size_t unreviewed_required = 0;  // review required, verdict still unreviewed
  // Verdict material difference: not a blocker, so the pair passes, but the decision weighs it.
  std::size_t material = 0;
  // One line: "fail: 1 blocker(s), 2 pair(s) awaiting review", then "; 3 material
  // difference(s)" when there are any.
  std::string summary;
};

struct ReviewRecord {
  static constexpr std::string_view kFormat = "lanebench.review/1";
  std::string lane_a;
  std::string lane_b;
  std::string prompt_set;  // e.g. "builtin:regression-20"; empty when none
  double threshold = kDefaultNearIdenticalThreshold;
  std::vector<PairReview> pairs;

  ReviewOutcome outcome() const;
  // Records a reviewer's verdict; false when index is out of range.
  bool set_verdict(std::size_t index, Verdict verdict, std::string note, SystemTime now);
};

// A fresh record: identical pairs get the verdict "identical" (settled without review), all others
// "unreviewed".
ReviewRecord make_review(std::string lane_a, std::string lane_b, std::string prompt_set,
                         double threshold, std::vector<PairComparison> pairs);
// Keeps earlier verdicts for pairs whose prompt id, triage and ratio are unchanged, so a re-run
// comparison does not throw away a reviewer's work; and the lanes that refused a prompt's media,
// which the texts alone do not tell.
void carry_over_verdicts(ReviewRecord& fresh, const ReviewRecord& previous);

nlohmann::json review_to_json(const ReviewRecord& record);
// Throws std::runtime_error naming the JSON path of the first problem.
ReviewRecord review_from_json(const nlohmann::json& json);

// Writes PATH.tmp then renames it over PATH, so a crash never leaves a half-written review.
bool save_review(const ReviewRecord& record, const std::string& path, std::string* error);
std::optional<ReviewRecord> load_review(const std::string& path, std::string* error);

}  // namespace lb::compare
