#include "core/compare/pair_comparison.h"

#include <stdexcept>

namespace lb::compare {

PairComparison compare_pair(std::size_t index, std::string_view a_utf8, std::string_view b_utf8,
                            const plan::PromptSpec* prompt, double threshold) {
  PairComparison pair;
  pair.index = index;
  pair.triage = triage_pair(a_utf8, b_utf8, threshold);
  if (prompt) {
    pair.prompt_id = prompt->id;
    pair.checks_a = run_checks(prompt->checks, a_utf8);
    pair.checks_b = run_checks(prompt->checks, b_utf8);
    pair.flipped = flipped_checks(pair.checks_a, pair.checks_b);
  }
  return pair;
}

std::vector<PairComparison> compare_lanes(const std::vector<std::string>& a,
                                          const std::vector<std::string>& b,
                                          const plan::PromptSet* prompts, double threshold) {
  if (a.size() != b.size() || (prompts && prompts->prompts.size() != a.size())) {
    throw std::invalid_argument("compare_lanes: lanes and prompt set differ in length");
  }
  std::vector<PairComparison> out;
  out.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    out.push_back(compare_pair(i, a[i], b[i], prompts ? &prompts->prompts[i] : nullptr, threshold));
  }
  return out;
}

}  // namespace lb::compare
