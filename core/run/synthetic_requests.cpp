#include "run/synthetic_requests.h"

#include <utility>

#include "plan/synthetic_prompt.h"

namespace lb::run {
namespace {
constexpr int64_t kWarmupIndexBase = 1'000'000'000;
constexpr int64_t kLevelIndexStride = 1'000'000;
}  // namespace

std::function<PlannedRequest(int64_t n, bool warmup)> synthetic_requests(
    int64_t input_tokens, uint64_t seed, int64_t level, ChatRequestOptions options) {
  const int64_t first_index = level * kLevelIndexStride;
  return [input_tokens, seed, first_index, options = std::move(options)](int64_t n, bool warmup) {
    plan::SyntheticPromptSpec spec;
    spec.target_tokens = input_tokens;
    spec.seed = seed;
    spec.index = (warmup ? kWarmupIndexBase : 0) + first_index + n;
    PlannedRequest r;
    r.index = n;
    r.body = chat_request_body(plan::synthetic_prompt(spec), options);
    r.expected_prompt_tokens = input_tokens;
    return r;
  };
}

}  // namespace lb::run
