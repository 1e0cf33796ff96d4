#include "core/run/experiments/sampled_regression_experiment.h"

#include <algorithm>
#include <variant>

#include "core/compare/sampled_verdicts.h"
#include "core/run/drive/chat_request_body.h"
#include "core/run/experiments/regression_experiment.h"

namespace lb::run {

std::vector<compare::PromptSamples> samples_in_prompt_order(
    const std::vector<metrics::RequestRecord>& records, size_t prompt_count, int64_t samples) {
  const auto per = static_cast<size_t>(std::max<int64_t>(samples, 1));
  std::vector<compare::PromptSamples> out(prompt_count);
  for (auto& p : out) {
    p.texts.assign(per, std::string());
    p.failed.assign(per, true);
  }
  for (const auto& r : records) {
    if (r.index < 0 || static_cast<size_t>(r.index) >= prompt_count * per) continue;
    auto& p = out[static_cast<size_t>(r.index) / per];
    const size_t k = static_cast<size_t>(r.index) % per;
    p.texts[k] = r.result.content;
    p.failed[k] = r.result.error != net::ErrorKind::None;
  }
  return out;
}

namespace {

LoadPhase sampled_phase(const plan::SampledRegressionExperiment& p, const plan::PromptSet& set,
                        const ExperimentContext& ctx, const LaneRuntime& lane) {
  LoadPhase phase;
  phase.experiment = ctx.spec().name_or_kind();
  phase.phase = "sampled";
  phase.lane = &lane.endpoint;
  phase.url = lane.endpoint.api_url("/chat/completions");
  phase.count = static_cast<int64_t>(set.prompts.size()) * p.samples;
  phase.concurrency = static_cast<int>(std::max<int64_t>(1, p.concurrency));
  ChatRequestOptions options;
  options.model = lane.endpoint.model;
  options.temperature = p.temperature;
  options.top_p = p.top_p;
  options.server = lane.probe.kind;
  options.max_media_bytes = lane.plan.max_media_bytes;
  const bool seeded = accepts_seed(lane.probe.kind);
  phase.request_at = [&set, options, seeded, samples = p.samples, seed = p.seed,
                      cap = p.max_tokens](int64_t n, bool) mutable {
    const auto& prompt = set.prompts[static_cast<size_t>(n / samples)];
    options.max_tokens = std::min<int64_t>(prompt.max_tokens, cap);
    options.seed = seeded ? seed + n % samples : -1;
    RequestBody built = prompt_request_body(prompt, options);
    PlannedRequest r;
    r.index = n;
    r.max_tokens = options.max_tokens;
    r.body = std::move(built.body);
    r.media = std::move(built.media);
    r.refused = std::move(built.refused);
    return r;
  };
  return phase;
}

nlohmann::json samples_json(const std::vector<compare::PromptSamples>& samples) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : samples) out.push_back(p.texts);
  return out;
}

int64_t failed_count(const std::vector<compare::PromptSamples>& samples) {
  int64_t n = 0;
  for (const auto& p : samples) n += std::count(p.failed.begin(), p.failed.end(), true);
  return n;
}

void compare_with_baseline(
    ExperimentContext& ctx, const plan::SampledRegressionExperiment& p, const plan::PromptSet& set,
    const std::vector<std::pair<std::string, std::vector<compare::PromptSamples>>>& lanes) {
  compare::SampledReviewOptions options;
  options.fdr = p.fdr;
  options.permutations = static_cast<int>(p.permutations);
  const auto& [base_id, base] = lanes.front();
  nlohmann::json comparisons = nlohmann::json::array();
  for (size_t i = 1; i < lanes.size(); ++i) {
    const auto& [cand_id, cand] = lanes[i];
    const auto c = compare::compare_samples(base_id, cand_id, base, cand, &set, options);
    const bool several = lanes.size() > 2;
    const std::string file = several ? "sampled." + cand_id + ".json" : "sampled.json";
    const std::string review =
        several ? "sampled-review." + cand_id + ".json" : "sampled-review.json";
    ctx.writer().write_json(file, compare::sampled_to_json(c));
    ctx.writer().write_json(review,
                            compare::sampled_review_to_json(compare::make_sampled_review(c)));
    nlohmann::json summary = compare::sampled_summary_json(c);
    summary["file"] = file;
    summary["review_file"] = review;
    int64_t losing = 0;
    for (const auto& prompt : c.prompts)
      losing += prompt.result == compare::SampledResult::Shifted &&
                        prompt.fact_lost_b.count * prompt.fact_lost_a.total >
                            prompt.fact_lost_a.count * prompt.fact_lost_b.total
                    ? 1
                    : 0;
    summary["shifted_losing_facts"] = losing;
    if (losing > 0)
      ctx.flag_blocker("sampled_regression: " + cand_id + " is shifted and loses a fact " +
                       base_id + " keeps on " + std::to_string(losing) + " prompt(s)");
    else if (c.count(compare::SampledResult::Shifted) > 0)
      ctx.warn("sampled_regression: " + cand_id + " is shifted from " + base_id + " on " +
               std::to_string(c.count(compare::SampledResult::Shifted)) +
               " prompt(s); review them before the gate can pass");
    comparisons.push_back(std::move(summary));
  }
  ctx.section()["comparisons"] = std::move(comparisons);
}

}  // namespace

void SampledRegressionExperiment::run(ExperimentContext& ctx) {
  const auto& p = std::get<plan::SampledRegressionExperiment>(ctx.spec().params);
  const std::optional<plan::PromptSet> loaded = load_experiment_prompts(ctx, p.prompts);
  if (!loaded) return;
  const plan::PromptSet& set = *loaded;
  ctx.section()["samples"] = p.samples;
  std::vector<std::pair<std::string, std::vector<compare::PromptSamples>>> lanes;
  for (LaneRuntime* lane : ctx.lanes()) {
    if (ctx.stopped()) break;
    PhaseOutcome outcome = ctx.run_phase(sampled_phase(p, set, ctx, *lane));
    auto samples = samples_in_prompt_order(outcome.records, set.prompts.size(), p.samples);
    const std::string file = "texts/" + lane->plan.id + ".samples.json";
    ctx.writer().write_json(file, samples_json(samples));
    auto& lane_section = ctx.section()["lanes"][lane->plan.id];
    lane_section["samples_file"] = file;
    lane_section["seed_sent"] = accepts_seed(lane->probe.kind);
    lane_section["failed_samples"] = failed_count(samples);
    lanes.emplace_back(lane->plan.id, std::move(samples));
  }
  if (!ctx.stopped() && lanes.size() >= 2) compare_with_baseline(ctx, p, set, lanes);
}

}  // namespace lb::run
