#include "core/run/experiments/prefix_cache_experiment.h"

#include <algorithm>
#include <cmath>
#include <variant>

#include "core/metrics/percentile.h"
#include "core/metrics/prometheus_text.h"
#include "core/metrics/request_metrics.h"
#include "core/plan/synthetic_prompt.h"
#include "core/record/prefix_cache_record.h"
#include "core/run/drive/chat_request_body.h"
#include "core/run/drive/prompt_sizer.h"
#include "core/run/drive/synthetic_requests.h"
#include "core/run/experiments/pass_counters.h"

namespace lb::run {
namespace {

using Bodies = std::vector<std::shared_ptr<const std::string>>;

// A warm pass must be this much faster than cold to count as timing evidence of reuse.
constexpr double kReuseTimingRatio = 2.0;

// The burst's request I at generator budget BUDGET (estimated tokens for the whole prompt): the
// shared prefix keeps its share of the budget, so every request of a pass shares the same bytes.
std::string burst_prompt(const plan::PrefixCacheExperiment& p, uint64_t seed, bool share_prefix,
                         int64_t budget, int64_t index) {
  const int64_t prompt_tokens = p.shared_prefix_tokens + p.suffix_tokens;
  plan::SyntheticPromptSpec spec;
  spec.target_tokens = std::max<int64_t>(1, budget);
  spec.shared_prefix_tokens =
      share_prefix
          ? std::llround(static_cast<double>(budget) * static_cast<double>(p.shared_prefix_tokens) /
                         static_cast<double>(std::max<int64_t>(1, prompt_tokens)))
          : 0;
  spec.seed = seed;
  spec.index = index;
  return plan::synthetic_prompt(spec);
}

// The burst's requests: the same shared prefix for each (cold and warm passes), or, for the
// control, every request's prefix its own, so that nothing is reusable even among the burst's
// own requests, as with caching off. With use_tokenize the burst's own first prompt is sized by
// the lane's /tokenize, not a stand-in of another seed: filler of another seed counts a few
// tenths of a percent differently, and a 30,000-token burst is sensitive to 75 tokens.
Bodies burst_bodies(ExperimentContext& ctx, const plan::PrefixCacheExperiment& p,
                    const LaneRuntime& lane, uint64_t seed, bool share_prefix) {
  const int64_t prompt_tokens = p.shared_prefix_tokens + p.suffix_tokens;
  const auto build = [&](int64_t budget) { return burst_prompt(p, seed, share_prefix, budget, 0); };
  const SizedPrompt sized =
      size_prompt(ctx.client(), lane.endpoint, prompt_tokens, build, p.use_tokenize);
  const int64_t budget = sized.tokenized ? sized.budget : prompt_tokens;
  ChatRequestOptions options;
  options.model = lane.endpoint.model;
  options.max_tokens = p.output_tokens;
  options.ignore_eos = lane.probe.supports_ignore_eos();
  options.server = lane.probe.kind;
  options.top_logprobs = ctx.spec().logprobs;
  Bodies bodies;
  for (int64_t i = 0; i < p.burst; ++i)
    bodies.push_back(chat_request_body(
        i == 0 ? sized.text : burst_prompt(p, seed, share_prefix, budget, i), options));
  return bodies;
}

struct PassFigures {
  double median_ttft_ms = -1;
  double output_tok_s = -1;
  double median_prefill_tok_s = -1;
  int64_t prompt_tokens = 0;
  int64_t cached_tokens = -1;  // -1 = no response reported it
  std::optional<metrics::CounterDelta> counters;
  int64_t failed = 0;
};

PassFigures figures_of(const PhaseOutcome& outcome) {
  PassFigures f;
  std::vector<double> ttft, prefill;
  int64_t output_tokens = 0;
  for (const auto& record : outcome.records) {
    const auto m = metrics::compute_request_metrics(record);
    if (!m.ok) {
      ++f.failed;
      continue;
    }
    if (m.ttft_ms >= 0) ttft.push_back(m.ttft_ms);  // a missing TTFT stays out of the median
    if (m.prefill_tok_s > 0) prefill.push_back(m.prefill_tok_s);
    output_tokens += std::max<int64_t>(0, m.output_tokens);
    f.prompt_tokens += std::max<int64_t>(0, m.prompt_tokens);
    if (m.cached_tokens >= 0)
      f.cached_tokens = std::max<int64_t>(0, f.cached_tokens) + m.cached_tokens;
  }
  if (!ttft.empty()) f.median_ttft_ms = metrics::median(ttft);
  if (!prefill.empty()) f.median_prefill_tok_s = metrics::median(prefill);
  const double span_s = static_cast<double>(outcome.last_done_ns - outcome.first_send_ns) / 1e9;
  if (span_s > 0) f.output_tok_s = static_cast<double>(output_tokens) / span_s;
  return f;
}

// A pass as summary.json records it: a figure no request gave is absent (NaN), never -1.
record::PrefixPassRecord pass_record(const std::string& name, const PassFigures& f) {
  const auto measured = [](double v) { return v >= 0 ? v : NAN; };
  record::PrefixPassRecord r;
  r.name = name;
  r.median_ttft_ms = measured(f.median_ttft_ms);
  r.output_tok_s = measured(f.output_tok_s);
  r.effective_prefill_tok_s = measured(f.median_prefill_tok_s);
  r.prompt_tokens = static_cast<double>(f.prompt_tokens);
  r.failed = static_cast<double>(f.failed);
  if (f.cached_tokens >= 0) {
    r.cached_tokens = static_cast<double>(f.cached_tokens);
    r.cached_provenance = metrics::to_string(metrics::Provenance::Server);
  }
  if (f.counters) {
    r.counters_read = true;
    r.prefix_cache_hits = f.counters->prefix_cache_hits.value_or(NAN);
    r.prefix_cache_queries = f.counters->prefix_cache_queries.value_or(NAN);
  }
  return r;
}

PassFigures run_pass(ExperimentContext& ctx, const LaneRuntime& lane, const std::string& name,
                     const Bodies& bodies, int64_t prompt_tokens, int64_t max_tokens) {
  PassCounters counters(ctx, lane);
  LoadPhase phase = lane_phase(ctx, lane, name);
  phase.count = static_cast<int64_t>(bodies.size());
  phase.concurrency = static_cast<int>(bodies.size());  // the whole burst at once
  phase.request_at = [&bodies, prompt_tokens, max_tokens](int64_t n, bool) {
    PlannedRequest r;
    r.index = n;
    r.max_tokens = max_tokens;
    r.body = bodies[static_cast<size_t>(n)];
    r.expected_prompt_tokens = prompt_tokens;
    return r;
  };
  PassFigures f = figures_of(ctx.run_phase(phase));
  f.counters = counters.finish();
  return f;
}

std::optional<double> counter_hit_rate(const PassFigures& f) {
  if (!f.counters || !f.counters->prefix_cache_hits || !f.counters->prefix_cache_queries ||
      *f.counters->prefix_cache_queries <= 0)
    return std::nullopt;
  return *f.counters->prefix_cache_hits / *f.counters->prefix_cache_queries;
}

// The three kinds of evidence side by side, each labelled with where it comes from.
void judge_reuse(const PassFigures& cold, const PassFigures& warm, ExperimentContext& ctx,
                 const LaneRuntime& lane, record::PrefixCacheRecord& out) {
  const bool usage = warm.cached_tokens >= 0 && warm.prompt_tokens > 0;
  if (usage)
    out.cached_tokens_ratio =
        static_cast<double>(warm.cached_tokens) / static_cast<double>(warm.prompt_tokens);
  const auto rate = counter_hit_rate(warm);
  out.counter_hit_rate = rate.value_or(NAN);
  const bool timed = cold.median_ttft_ms > 0 && warm.median_ttft_ms > 0;
  const double ratio = timed ? cold.median_ttft_ms / warm.median_ttft_ms : -1;
  if (timed) out.ttft_ratio_cold_over_warm = ratio;
  // The cache config the lane exposed when probed (vLLM cache_config_info).
  const auto config =
      metrics::extract_server_counters(metrics::parse_prometheus_text(lane.probe.metrics_text));
  out.server_prefix_caching = config.prefix_caching_enabled;
  const bool disabled = config.prefix_caching_enabled == false;
  if (!usage && !rate && !disabled) {
    out.warning =
        "the server exposes neither cached_tokens nor prefix-cache counters: "
        "reuse is inferred from timing only";
    ctx.warn("lane " + lane.plan.id + ": " + out.warning);
  }
  // Counters decide when present; timing is the fallback.
  if (disabled && !rate)
    out.reuse_basis = "server cache config: prefix caching disabled", out.reuse_detected = false;
  else if (rate)
    out.reuse_basis = "server counters", out.reuse_detected = *rate > 0.5;
  else if (usage)
    out.reuse_basis = "usage cached_tokens",
    out.reuse_detected = warm.cached_tokens * 2 > warm.prompt_tokens;
  else
    out.reuse_basis = "timing (estimated)", out.reuse_detected = ratio >= kReuseTimingRatio;
}

}  // namespace

void PrefixCacheExperiment::run(ExperimentContext& ctx) {
  const auto& p = std::get<plan::PrefixCacheExperiment>(ctx.spec().params);
  const std::string name = ctx.spec().name_or_kind();
  const int64_t prompt_tokens = p.shared_prefix_tokens + p.suffix_tokens;
  for (LaneRuntime* lane : ctx.lanes()) {
    if (ctx.stopped()) return;
    // Each lane gets the same prompts; the control's prefix is salted so nothing matches it.
    const uint64_t seed = name_seed(name) ^ ctx.trial_salt();
    const Bodies bodies = burst_bodies(ctx, p, *lane, seed, true);
    record::PrefixCacheRecord out;
    out.burst = p.burst;
    out.shared_prefix_tokens = p.shared_prefix_tokens;
    out.suffix_tokens = p.suffix_tokens;
    out.output_tokens = p.output_tokens;
    const PassFigures cold = run_pass(ctx, *lane, "cold", bodies, prompt_tokens, p.output_tokens);
    out.passes.push_back(pass_record("cold", cold));
    if (ctx.stopped()) return;
    const PassFigures warm = run_pass(ctx, *lane, "warm", bodies, prompt_tokens, p.output_tokens);
    out.passes.push_back(pass_record("warm", warm));
    if (p.control && !ctx.stopped()) {
      const Bodies salted = burst_bodies(
          ctx, p, *lane, name_seed(name + "#control", 0x5a17ULL) ^ ctx.trial_salt(), false);
      const PassFigures control =
          run_pass(ctx, *lane, "control", salted, prompt_tokens, p.output_tokens);
      out.passes.push_back(pass_record("control", control));
      if (control.median_ttft_ms > 0 && warm.median_ttft_ms > 0)
        out.ttft_ratio_control_over_warm = control.median_ttft_ms / warm.median_ttft_ms;
    }
    judge_reuse(cold, warm, ctx, *lane, out);
    ctx.section()["lanes"][lane->plan.id]["prefix_cache"] = record::to_json(out);
  }
}

}  // namespace lb::run
