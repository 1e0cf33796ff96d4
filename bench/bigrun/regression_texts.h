#pragma once
// A regression prompt set of N fact-checked questions and two lanes' answers to it. Each answer
// is 60-190 words of prose that states the expected number and key word. The candidate's answer
// is identical to the baseline's for most prompts; otherwise near-identical (one to three words
// changed), divergent (rewritten, same facts) or, for a few, the same prose with the number
// changed: a flipped fact.
#include <cstdint>
#include <string>
#include <vector>

namespace lb::bench {

struct RegressionTexts {
  std::string prompt_set_jsonl;  // one prompt per line, in the plan's prompt-set format
  std::vector<std::string> baseline;
  std::vector<std::string> candidate;
};

RegressionTexts make_regression_texts(int64_t prompts, uint64_t seed);

// The output tokens of an answer as a server would count them (about 1.3 per word).
int64_t answer_tokens(const std::string& text);

}  // namespace lb::bench
