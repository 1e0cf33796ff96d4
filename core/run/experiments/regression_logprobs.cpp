// Regression logprobs: each prompt's per-token logprobs in prompt order, and whether a lane
// refused them (so the run can go on without).
#include <algorithm>
#include <cctype>

#include "core/net/stream_parser.h"
#include "core/run/experiments/regression_experiment.h"
#include "core/text/ascii_text.h"

namespace lb::run {

bool refused_logprobs(const std::vector<metrics::RequestRecord>& records, std::string& message) {
  for (const auto& r : records) {
    if (r.result.http_status != 400) continue;
    if (text::ascii_lower(r.result.error_message).find("logprob") == std::string::npos) continue;
    message = r.result.error_message.substr(0, 300);
    return true;
  }
  return false;
}

std::vector<logprobs::PromptLogprobs> logprobs_in_prompt_order(
    const std::vector<metrics::RequestRecord>& records, const plan::PromptSet& set, int top_k,
    const std::string& unsupported) {
  std::vector<logprobs::PromptLogprobs> out(set.prompts.size());
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].index = static_cast<int64_t>(i);
    out[i].prompt_id = set.prompts[i].id;
    out[i].top_k = top_k;
    out[i].status = "not_run";
  }
  for (const auto& r : records) {
    if (r.index < 0 || static_cast<size_t>(r.index) >= out.size()) continue;
    auto& p = out[static_cast<size_t>(r.index)];
    if (!unsupported.empty()) {
      p.status = "unsupported";
      p.note = unsupported;
    } else if (r.result.error != net::ErrorKind::None) {
      p.status = "failed";
      p.note = std::string(net::to_string(r.result.error)) + ": " + r.result.error_message;
    } else if (!r.result.logprobs_seen) {
      p.status = "unsupported";
      p.note = "the server answered without logprobs";
    } else {
      std::string error;
      p.tokens = net::resolved_logprobs(r.result, &error);
      p.status = error.empty() ? "ok" : "failed";
      p.note = error;
      logprobs::normalize(p.tokens, top_k);
    }
  }
  return out;
}

}  // namespace lb::run
