#include "run/prompt_sizer.h"

#include <cmath>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "plan/synthetic_prompt.h"

namespace lb::run {
namespace {

constexpr double kTolerance = 0.01;
constexpr int kMaxRounds = 6;

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
  for (int round = 0; round < kMaxRounds; ++round) {
    const int64_t counted = tokenize_count(client, lane, out.text);
    if (counted <= 0) return out;  // no /tokenize: the estimate stands, labelled as one
    out.tokenized = true;
    out.tokens = counted;
    const double error = static_cast<double>(counted - target_tokens);
    if (std::abs(error) <= kTolerance * static_cast<double>(target_tokens)) return out;
    // Filler tokens scale with the budget; the template and question are a small constant.
    budget =
        std::max<int64_t>(1, static_cast<int64_t>(std::llround(static_cast<double>(budget) *
                                                               static_cast<double>(target_tokens) /
                                                               static_cast<double>(counted))));
    out.text = build(budget);
    out.budget = budget;
  }
  out.tokens = tokenize_count(client, lane, out.text);
  out.tokenized = out.tokens > 0;
  if (!out.tokenized) out.tokens = plan::estimate_prompt_tokens(out.text);
  return out;
}

}  // namespace lb::run
