#include "core/run/drive/trace_requests.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/plan/synthetic_prompt.h"

namespace lb::run {
namespace {

// Block texts and a request's own text come from separate index ranges of one seed.
constexpr int64_t kOwnTextIndexBase = int64_t{1} << 60;

std::string block_text(int64_t hash_id, uint64_t seed, double scale) {
  plan::SyntheticPromptSpec spec;
  spec.target_tokens =
      std::max<int64_t>(1, std::llround(static_cast<double>(plan::kTraceBlockTokens) * scale));
  spec.seed = seed;
  spec.index = hash_id;
  return plan::synthetic_prompt(spec);
}

}  // namespace

std::string trace_prompt(const plan::TraceRequest& request, int64_t index, uint64_t seed,
                         double scale) {
  const auto total_chars =
      static_cast<size_t>(static_cast<double>(request.input_tokens) * plan::kCharsPerToken * scale);
  std::string out;
  out.reserve(total_chars);
  for (int64_t id : request.hash_ids) {
    if (out.size() >= total_chars) break;
    out += block_text(id, seed, scale);
  }
  if (out.size() >= total_chars) {
    out.resize(total_chars);
    return out;
  }
  plan::SyntheticPromptSpec own;
  const auto chars_per_token = static_cast<size_t>(plan::kCharsPerToken);
  own.target_tokens =
      static_cast<int64_t>((total_chars - out.size() + chars_per_token - 1) / chars_per_token);
  own.seed = seed;
  own.index = kOwnTextIndexBase + index;
  out += plan::synthetic_prompt(own);
  out.resize(std::min(out.size(), total_chars));
  return out;
}

std::function<PlannedRequest(int64_t n, bool warmup)> trace_requests(
    std::shared_ptr<const plan::Trace> trace, uint64_t seed, ChatRequestOptions options,
    double scale) {
  return [trace = std::move(trace), seed, options = std::move(options), scale](int64_t n, bool) {
    const plan::TraceRequest& request = trace->requests.at(static_cast<size_t>(n));
    ChatRequestOptions o = options;
    o.max_tokens = request.output_tokens;
    PlannedRequest r;
    r.index = n;
    r.max_tokens = o.max_tokens;
    r.body = chat_request_body(trace_prompt(request, n, seed, scale), o);
    r.expected_prompt_tokens = request.input_tokens;
    return r;
  };
}

std::vector<int64_t> trace_schedule_ns(const plan::Trace& trace, double speedup) {
  std::vector<int64_t> out;
  out.reserve(trace.requests.size());
  const double factor = speedup > 0 ? 1.0 / speedup : 1.0;
  for (const auto& r : trace.requests)
    out.push_back(std::llround(static_cast<double>(r.offset_ns) * factor));
  return out;
}

}  // namespace lb::run
