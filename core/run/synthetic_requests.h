#pragma once
// Synthetic-prompt requests for one level of a load sweep. Each level gets prompts of its own (the
// same on every lane, so lanes see the same workload) and warm-ups draw from another range, so
// neither a later level nor the measured requests find their prompts in a prefix cache.
#include <cstdint>
#include <functional>

#include "run/chat_request_body.h"
#include "run/load_driver.h"

namespace lb::run {

std::function<PlannedRequest(int64_t n, bool warmup)> synthetic_requests(
    int64_t input_tokens, uint64_t seed, int64_t level, ChatRequestOptions options);

}  // namespace lb::run
