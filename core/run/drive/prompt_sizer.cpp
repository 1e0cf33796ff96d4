#include "core/run/drive/prompt_sizer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "core/plan/synthetic_prompt.h"

namespace lb::run {
namespace {

// Close enough: within 0.1 % or 2 tokens, whichever is more. A 1 % band left a "30,091-token"
// burst prompt 75 tokens short, enough to move the later requests of a cold prefix burst into
// other prefill steps (its median TTFT fell by 10 %).
constexpr double kTolerance = 0.001;
constexpr int64_t kToleranceTokens = 2;
constexpr int kMaxRounds = 8;

bool close_enough(int64_t counted, int64_t target) {
  const double band =
      std::max(static_cast<double>(kToleranceTokens), kTolerance * static_cast<double>(target));
  return std::abs(static_cast<double>(counted - target)) <= band;
}

}  // namespace

int64_t tokenize_count(net::StreamClient& client, const LaneEndpoint& lane,
                       const std::string& user_text) {
  nlohmann::json body = {{"model", lane.model},
                         {"messages", {{{"role", "user"}, {"content", user_text}}}},
                         {"add_generation_prompt", true}};
  auto req = lane.make_request(lane.root_url("/tokenize"), "POST");
  req.stream = false;
  req.dialect = net::Dialect::PlainText;
  req.body = std::make_shared<const std::string>(body.dump());
  req.timeouts.total_ms = 60'000;
  auto r = client.fetch(std::move(req));
  if (r.error != net::ErrorKind::None || r.http_status != 200) return -1;
  auto j = nlohmann::json::parse(r.body, nullptr, false);
  if (!j.is_object() || !j.contains("count") || !j["count"].is_number_integer()) return -1;
  return j["count"].get<int64_t>();
}

SizedPrompt size_prompt(net::StreamClient& client, const LaneEndpoint& lane, int64_t target_tokens,
                        const std::function<std::string(int64_t)>& build, bool use_tokenize) {
  SizedPrompt out;
  int64_t budget = target_tokens;
  out.text = build(budget);
  out.budget = budget;
  out.tokens = plan::estimate_prompt_tokens(out.text);
  if (!use_tokenize) return out;
  SizedPrompt best;  // the closest counted prompt so far, should the rounds not converge
  for (int round = 0; round < kMaxRounds; ++round) {
    const int64_t counted = tokenize_count(client, lane, out.text);
    if (counted <= 0) return best.tokenized ? best : out;  // no /tokenize: the estimate stands
    out.tokenized = true;
    out.tokens = counted;
    if (!best.tokenized ||
        std::llabs(counted - target_tokens) < std::llabs(best.tokens - target_tokens))
      best = out;
    if (close_enough(counted, target_tokens)) return out;
    // Filler tokens scale with the budget; the template and question are a small constant.
    const int64_t next =
        std::max<int64_t>(1, static_cast<int64_t>(std::llround(static_cast<double>(budget) *
                                                               static_cast<double>(target_tokens) /
                                                               static_cast<double>(counted))));
    // Near the target the ratio can round back to the same budget: step by one instead.
    budget =
        std::max<int64_t>(1, next != budget ? next : budget + (counted < target_tokens ? 1 : -1));
    out.text = build(budget);
    out.budget = budget;
  }
  return best;
}

}  // namespace lb::run
