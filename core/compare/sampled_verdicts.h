#pragma once
// sampled-review.json: the reviewers' verdicts on a sampled review, one entry per prompt. A
// `shifted` prompt (its cross-lane similarity is lower than within-lane) must get a verdict
// before the sampled review's gate can pass; a `blocker` verdict fails it.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/compare/review_record.h"
#include "core/compare/sampled_review.h"

namespace lb::compare {

struct SampledVerdict {
  size_t index = 0;
  std::string prompt_id;
  std::string result;  // sampled_result_name() of the prompt
  Verdict verdict = Verdict::Unreviewed;
  std::string note;
  std::optional<SystemTime> reviewed_at;
  bool review_required() const { return result == "shifted"; }
};

struct SampledReviewOutcome {
  size_t shifted = 0;
  size_t unreviewed = 0;  // shifted prompts without a verdict
  size_t blockers = 0;
  bool passed() const { return unreviewed == 0 && blockers == 0; }
};

struct SampledReviewRecord {
  static constexpr std::string_view kFormat = "lanebench.sampled_review/1";
  std::string lane_a, lane_b, prompt_set;
  std::vector<SampledVerdict> prompts;
  SampledReviewOutcome outcome() const;
  // Records a reviewer's verdict for the prompt at `index`; false when there is none.
  bool set_verdict(size_t index, Verdict verdict, std::string note, SystemTime now);
};

// Every prompt unreviewed.
SampledReviewRecord make_sampled_review(const SampledComparison& c);
nlohmann::json sampled_review_to_json(const SampledReviewRecord& r);
// Throws std::runtime_error naming the problem.
SampledReviewRecord sampled_review_from_json(const nlohmann::json& j);
// PATH.tmp renamed over PATH, as save_review.
bool save_sampled_review(const SampledReviewRecord& r, const std::string& path, std::string* error);
std::optional<SampledReviewRecord> load_sampled_review(const std::string& path, std::string* error);

}  // namespace lb::compare
