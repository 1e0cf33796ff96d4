#pragma once
// Requests of a replayed trace (plan/trace_file.h): each asks for the trace's output length and
// sends a prompt of its input length. A Mooncake hash id always gives the same 512-token block of
// text, so requests that share hash ids share prompt prefixes as the traced ones did and a
// prefix cache sees the trace's real sharing; the rest of a prompt is text of its own.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/plan/trace_file.h"
#include "core/run/drive/chat_request_body.h"
#include "core/run/drive/load_driver.h"

namespace lb::run {

// The prompt of request `index` of a trace: about request.input_tokens tokens, the hash-id blocks
// first. SCALE is the lane's generator budget per token (synthetic_budget() over the size):
// 1 sizes at 4 characters per token (plan/synthetic_prompt.h), 0.75 at 3, so a block is 512
// tokens as the lane counts them.
std::string trace_prompt(const plan::TraceRequest& request, int64_t index, uint64_t seed,
                         double scale = 1.0);

// Request n of the trace; max_tokens is each request's output length.
std::function<PlannedRequest(int64_t n, bool warmup)> trace_requests(
    std::shared_ptr<const plan::Trace> trace, uint64_t seed, ChatRequestOptions options,
    double scale = 1.0);

// Send offsets of the trace's requests: trace offsets divided by speedup, in ns.
std::vector<int64_t> trace_schedule_ns(const plan::Trace& trace, double speedup);

}  // namespace lb::run
