#include "core/run/drive/synthetic_requests.h"

#include <utility>

#include "core/plan/synthetic_prompt.h"
#include "core/run/drive/prompt_sizer.h"
#include "core/run/experiments/experiment.h"

namespace lb::run {
namespace {
constexpr int64_t kWarmupIndexBase = 1'000'000'000;
constexpr int64_t kLevelIndexStride = 1'000'000;
constexpr uint64_t kSizingSeed = 0x51e5ULL;  // the prompt sized against /tokenize
}  // namespace

std::function<PlannedRequest(int64_t n, bool warmup)> synthetic_requests(int64_t input_tokens,
                                                                         uint64_t seed,
                                                                         int64_t level,
                                                                         ChatRequestOptions options,
                                                                         int64_t budget) {
  const int64_t first_index = level * kLevelIndexStride;
  if (budget <= 0) budget = input_tokens;
  return [input_tokens, budget, seed, first_index, options = std::move(options)](int64_t n,
                                                                                 bool warmup) {
    plan::SyntheticPromptSpec spec;
    spec.target_tokens = budget;
    spec.seed = seed;
    spec.index = (warmup ? kWarmupIndexBase : 0) + first_index + n;
    PlannedRequest r;
    r.index = n;
    r.max_tokens = options.max_tokens;
    r.body = chat_request_body(plan::synthetic_prompt(spec), options);
    r.expected_prompt_tokens = input_tokens;
    return r;
  };
}

int64_t known_budget(const LaneRuntime& lane, int64_t target_tokens, bool use_tokenize) {
  const auto it = lane.prompt_budgets.find(target_tokens);
  return use_tokenize && it != lane.prompt_budgets.end() ? it->second : -1;
}

int64_t synthetic_budget(net::StreamClient& client, LaneRuntime& lane, int64_t target_tokens,
                         bool use_tokenize) {
  if (!use_tokenize || target_tokens <= 0) return target_tokens;
  if (const auto it = lane.prompt_budgets.find(target_tokens); it != lane.prompt_budgets.end())
    return it->second;
  // Prompts of one generator differ only in their seeded filler, so one sized prompt gives the
  // budget for all of them.
  const auto build = [](int64_t budget) {
    plan::SyntheticPromptSpec spec;
    spec.target_tokens = budget;
    spec.seed = kSizingSeed;
    return plan::synthetic_prompt(spec);
  };
  const SizedPrompt sized = size_prompt(client, lane.endpoint, target_tokens, build, true);
  const int64_t budget = sized.tokenized ? sized.budget : target_tokens;
  lane.prompt_budgets[target_tokens] = budget;
  return budget;
}

}  // namespace lb::run
