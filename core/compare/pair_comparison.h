#pragma once
// One prompt's outputs from two lanes, triaged and fact-checked: the row of the regression check.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/compare/fact_check.h"
#include "core/compare/triage.h"
#include "core/plan/prompt_set.h"

namespace lb::compare {

struct PairComparison {
  std::size_t index = 0;
  std::string prompt_id;  // empty when no prompt set was given
  TriageResult triage;
  std::vector<CheckResult> checks_a;
  std::vector<CheckResult> checks_b;
  std::vector<std::size_t> flipped;  // checks passing on A and not on B
  // Lanes whose API refused the prompt's images or videos (a text-only lane answering 400): the
  // pair compares no answers, so it neither flips a fact nor needs a verdict.
  std::vector<std::string> unsupported_by;

  bool unsupported() const { return !unsupported_by.empty(); }
  bool blocker_candidate() const { return !flipped.empty() && !unsupported(); }
  // Non-identical pairs go to side-by-side review; divergent and flipped ones must be reviewed
  // before the regression can pass.
  bool review_required() const {
    return !unsupported() && (triage.triage == TriageClass::Divergent || blocker_candidate());
  }
};

// prompt may be null (no checks). threshold: near-identical ratio threshold.
PairComparison compare_pair(std::size_t index, std::string_view a_utf8, std::string_view b_utf8,
                            const plan::PromptSpec* prompt, double threshold);

// Lanes' outputs in prompt order; a and b must have the same size, and so must prompts when
// given (callers report mismatches; see texts_file.h).
std::vector<PairComparison> compare_lanes(const std::vector<std::string>& a,
                                          const std::vector<std::string>& b,
                                          const plan::PromptSet* prompts, double threshold);

}  // namespace lb::compare
