#include "core/run/experiments/determinism_checks.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace lb::run {
namespace {

const logprobs::PromptLogprobs* logprobs_at(const LaneTexts& t, size_t i) {
  return i < t.logprobs.size() ? &t.logprobs[i] : nullptr;
}

record::FlipRate flip_rate(int64_t flips, int64_t compared) {
  record::FlipRate r;
  r.flips = static_cast<double>(flips);
  r.prompts_compared = static_cast<double>(compared);
  if (compared > 0) {
    r.rate = static_cast<double>(flips) / static_cast<double>(compared);
    std::tie(r.lo, r.hi) = wilson_interval_95(flips, compared);
  }
  return r;
}

// Where the first pass that differs parts from the reference.
record::FlipRecord flip_record(size_t index, const std::string& id, size_t unique_outputs,
                               const compare::TokenDivergence& d) {
  record::FlipRecord f;
  f.prompt_id = id;
  f.index = static_cast<double>(index);
  f.unique_outputs = static_cast<double>(unique_outputs);
  if (d.token_index >= 0) f.token_index = static_cast<double>(d.token_index);
  f.char_offset = static_cast<double>(d.char_offset_a);
  f.reference_token = d.token_a;
  f.other_token = d.token_b;
  f.margin_nats = d.baseline_margin_nats.value_or(NAN);
  f.divergence_class = compare::to_string(d.cls);
  f.reason = d.reason;
  return f;
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
    out.flips.push_back(flip_record(i, set.prompts[i].id, unique.size(), d));
  }
  return out;
}

record::FloorCheck flip_check_record(std::string name, const FlipCheck& check,
                                     const plan::PromptSet& set) {
  record::FloorCheck c;
  c.name = std::move(name);
  c.counted = true;
  c.rate = flip_rate(static_cast<int64_t>(check.flipped.size()), check.prompts_compared);
  for (size_t i : check.failed)
    c.failed_prompts.push_back({static_cast<double>(i), set.prompts[i].id});
  c.flipped = check.flips;
  return c;
}

record::DeterminismFloor combined_floor(const std::vector<const FlipCheck*>& checks,
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
  record::DeterminismFloor out;
  out.floor = flip_rate(static_cast<int64_t>(flipped.size()), static_cast<int64_t>(in_all.size()));
  out.counts = names;
  for (size_t i : flipped) out.flipped_prompts.push_back(static_cast<double>(i));
  return out;
}

}  // namespace lb::run
