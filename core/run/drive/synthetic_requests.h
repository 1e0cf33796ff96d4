#pragma once
// Synthetic-prompt requests for one level of a load sweep. Each level gets prompts of its own (the
// same on every lane, so lanes see the same workload) and warm-ups draw from another range, so
// neither a later level nor the measured requests find their prompts in a prefix cache.
#include <cstdint>
#include <functional>

#include "core/run/drive/chat_request_body.h"
#include "core/run/drive/load_driver.h"

namespace lb::run {
struct LaneRuntime;
}  // namespace lb::run

namespace lb::run {

// BUDGET is the generator's size (estimated tokens, synthetic_budget()); INPUT_TOKENS is the
// size the requests are meant to have, recorded as each one's expected prompt tokens.
std::function<PlannedRequest(int64_t n, bool warmup)> synthetic_requests(int64_t input_tokens,
                                                                         uint64_t seed,
                                                                         int64_t level,
                                                                         ChatRequestOptions options,
                                                                         int64_t budget = -1);

// The generator budget that gives a synthetic prompt of TARGET tokens as the lane's /tokenize
// counts them (the chat template included), found once per lane and size and kept in the
// LaneRuntime. TARGET itself when USE_TOKENIZE is false or the lane has no /tokenize: the
// client's estimate (about 4 characters per token) then stands.
int64_t synthetic_budget(net::StreamClient& client, LaneRuntime& lane, int64_t target_tokens,
                         bool use_tokenize);
// The budget synthetic_budget() found earlier for this lane and size; -1 when none was (or
// USE_TOKENIZE is false).
int64_t known_budget(const LaneRuntime& lane, int64_t target_tokens, bool use_tokenize);

}  // namespace lb::run
