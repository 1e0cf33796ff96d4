#include "core/run/experiments/determinism_checks.h"

#include <algorithm>
#include <set>

namespace lb::run {
namespace {

const logprobs::PromptLogprobs* logprobs_at(const LaneTexts& t, size_t i) {
  return i < t.logprobs.size() ? &t.logprobs[i] : nullptr;
}

nlohmann::json rate_json(int64_t flips, int64_t compared) {
  const auto [lo, hi] = wilson_interval_95(flips, compared);
  return {{"flips", flips},
          {"prompts_compared", compared},
          {"flip_rate",
           compared > 0 ? nlohmann::json(static_cast<double>(flips) / static_cast<double>(compared))
                        : nlohmann::json(nullptr)},
          {"flip_rate_interval", compared > 0 ? nlohmann::json({lo, hi}) : nlohmann::json(nullptr)},
          {"interval_method", "Wilson score, 95 %"}};
}

// Where the first pass that differs parts from the reference.
nlohmann::json divergence_json(const compare::TokenDivergence& d) {
  nlohmann::json j = {{"class", compare::to_string(d.cls)}, {"reason", d.reason}};
  if (d.token_index >= 0) j["token_index"] = d.token_index;
  j["char_offset"] = d.char_offset_a;
  j["reference_token"] = d.token_a;
  j["other_token"] = d.token_b;
  j["margin_nats"] =
      d.baseline_margin_nats ? nlohmann::json(*d.baseline_margin_nats) : nlohmann::json(nullptr);
  return j;
}

}  // namespace

FlipCheck compare_passes(const plan::PromptSet& set, const LaneTexts& reference,
                         const std::vector<const LaneTexts*>& others,
                         const compare::DivergenceThresholds& thresholds) {
  FlipCheck out;
  for (size_t i = 0; i < set.prompts.size(); ++i) {
    bool failed = i >= reference.errors.size() || !reference.errors[i].empty();
    for (const LaneTexts* o : others)
      failed = failed || i >= o->errors.size() || !o->errors[i].empty();
    if (failed) {
      out.failed.push_back(i);
      continue;
    }
    ++out.prompts_compared;
    out.compared.push_back(i);
    std::set<std::string> unique = {reference.texts[i]};
    const LaneTexts* first_differing = nullptr;
    for (const LaneTexts* o : others) {
      unique.insert(o->texts[i]);
      if (first_differing == nullptr && o->texts[i] != reference.texts[i]) first_differing = o;
    }
    if (first_differing == nullptr) continue;
    out.flipped.push_back(i);
    compare::TokenDivergence d = compare::analyse_token_divergence(
        logprobs_at(reference, i), logprobs_at(*first_differing, i), reference.texts[i],
        first_differing->texts[i], thresholds);
    out.flipped_json.push_back({{"index", i},
                                {"id", set.prompts[i].id},
                                {"unique_outputs", unique.size()},
                                {"divergence", divergence_json(d)}});
  }
  return out;
}

nlohmann::json flip_check_json(const FlipCheck& check, const plan::PromptSet& set) {
  nlohmann::json j = rate_json(static_cast<int64_t>(check.flipped.size()), check.prompts_compared);
  nlohmann::json failed = nlohmann::json::array();
  for (size_t i : check.failed) failed.push_back({{"index", i}, {"id", set.prompts[i].id}});
  j["failed_prompts"] = std::move(failed);
  j["flipped"] = check.flipped_json;
  return j;
}

nlohmann::json floor_json(const std::vector<const FlipCheck*>& checks,
                          const std::vector<std::string>& names) {
  std::set<size_t> in_all;
  if (!checks.empty())
    in_all.insert(checks.front()->compared.begin(), checks.front()->compared.end());
  for (const FlipCheck* c : checks) {
    std::set<size_t> kept;
    for (size_t i : c->compared)
      if (in_all.count(i)) kept.insert(i);
    in_all = std::move(kept);
  }
  std::set<size_t> flipped;
  for (const FlipCheck* c : checks)
    for (size_t i : c->flipped)
      if (in_all.count(i)) flipped.insert(i);
  const auto compared = static_cast<int64_t>(in_all.size());
  nlohmann::json j = rate_json(static_cast<int64_t>(flipped.size()), compared);
  j["checks"] = names;
  j["flipped_prompts"] = std::vector<size_t>(flipped.begin(), flipped.end());
  return j;
}

}  // namespace lb::run
