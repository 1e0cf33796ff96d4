#include "core/run/experiments/context_sweep_experiment.h"

#include <variant>

#include "core/metrics/percentile.h"
#include "core/metrics/request_metrics.h"
#include "core/plan/synthetic_prompt.h"
#include "core/run/drive/chat_request_body.h"
#include "core/run/drive/needle_prompt.h"
#include "core/run/drive/prompt_sizer.h"
#include "core/run/experiments/pass_counters.h"

namespace lb::run {
namespace {

struct SizeRequest {
  std::shared_ptr<const std::string> body;  // shared: ~1 MB at 241K tokens, never copied
  Needle needle;
  SizedPrompt prompt;
};

SizeRequest build_request(ExperimentContext& ctx, const LaneRuntime& lane,
                          const plan::ContextSweepExperiment& p, int64_t target, uint64_t seed) {
  SizeRequest r;
  r.needle = make_needle(seed);
  auto build = [&](int64_t budget) {
    if (!p.needle) {
      plan::SyntheticPromptSpec spec;
      spec.target_tokens = budget;
      spec.seed = seed;
      return plan::synthetic_prompt(spec);
    }
    return needle_prompt(r.needle, budget, seed, p.needle_depth);
  };
  r.prompt = size_prompt(ctx.client(), lane.endpoint, target, build, p.use_tokenize);
  ChatRequestOptions options;
  options.model = lane.endpoint.model;
  options.max_tokens = p.output_tokens;
  options.server = lane.probe.kind;
  options.top_logprobs = ctx.spec().logprobs;
  r.body = chat_request_body(r.prompt.text, options);
  return r;
}

double median_of(std::vector<double> v) { return v.empty() ? NAN : metrics::median(std::move(v)); }

record::ContextSizeRecord size_row(const PhaseOutcome& outcome,
                                   const std::vector<SizeRequest>& requests, bool needle) {
  std::vector<double> ttft, prefill, decode, e2el;
  int64_t retrieved = 0, prompt_tokens = -1, completed = 0;
  for (const auto& record : outcome.records) {
    const auto m = metrics::compute_request_metrics(record);
    if (!m.ok) continue;
    ++completed;
    // A completed request may still lack a figure (no output event: no TTFT); a missing one is
    // left out of the median, never counted as -1 in it.
    if (m.ttft_ms >= 0) ttft.push_back(m.ttft_ms);
    if (m.e2el_ms >= 0) e2el.push_back(m.e2el_ms);
    if (m.prefill_tok_s > 0) prefill.push_back(m.prefill_tok_s);
    if (m.decode_tok_s > 0) decode.push_back(m.decode_tok_s);
    if (m.prompt_tokens >= 0) prompt_tokens = m.prompt_tokens;
    const auto& req = requests[static_cast<size_t>(record.index)];
    retrieved += needle_retrieved(record.result.content, req.needle) ? 1 : 0;
  }
  record::ContextSizeRecord row;
  row.status = "measured";
  if (prompt_tokens >= 0) row.prompt_tokens = static_cast<double>(prompt_tokens);
  row.completed = static_cast<double>(completed);
  row.ttft_ms = median_of(std::move(ttft));
  row.effective_prefill_tok_s = median_of(std::move(prefill));
  row.decode_tok_s = median_of(std::move(decode));
  row.e2el_ms = median_of(std::move(e2el));
  if (needle) {
    row.retrieval_passed = static_cast<double>(retrieved);
    row.retrieval_attempts = static_cast<double>(requests.size());
    row.retrieval_pass = completed > 0 && retrieved == static_cast<int64_t>(requests.size());
  }
  return row;
}

record::ContextSizeRecord sweep_size(ExperimentContext& ctx, const LaneRuntime& lane,
                                     const plan::ContextSweepExperiment& p, int64_t target,
                                     uint64_t seed) {
  const int64_t max_len = lane.probe.max_context_tokens();
  if (max_len > 0 && target + p.output_tokens > max_len) {
    record::ContextSizeRecord skipped;
    skipped.status = "skipped";
    skipped.reason = "exceeds max_model_len (" + std::to_string(max_len) + ")";
    return skipped;
  }
  std::vector<SizeRequest> requests;
  // Each repeat has its own filler and needle: a repeat must not find the last one cached.
  for (int64_t i = 0; i < p.repeat; ++i)
    requests.push_back(build_request(ctx, lane, p, target, seed + static_cast<uint64_t>(i)));
  LoadPhase phase = lane_phase(ctx, lane, std::to_string(target));
  phase.count = p.repeat;
  phase.request_at = [&requests, max_tokens = p.output_tokens](int64_t n, bool) {
    PlannedRequest r;
    r.index = n;
    r.max_tokens = max_tokens;
    r.body = requests[static_cast<size_t>(n)].body;
    r.expected_prompt_tokens = requests[static_cast<size_t>(n)].prompt.tokens;
    return r;
  };
  record::ContextSizeRecord row = size_row(ctx.run_phase(phase), requests, p.needle);
  row.sized_tokens = static_cast<double>(requests.front().prompt.tokens);
  row.sized_provenance =
      metrics::to_string(requests.front().prompt.tokenized ? metrics::Provenance::Server
                                                           : metrics::Provenance::Estimated);
  if (p.needle) row.needle_depth = p.needle_depth;
  return row;
}

}  // namespace

const std::vector<int64_t>& default_context_sizes() {
  static const std::vector<int64_t> sizes = {4096, 16384, 32768, 65536, 131072, 245760};
  return sizes;
}

void ContextSweepExperiment::run(ExperimentContext& ctx) {
  const auto& p = std::get<plan::ContextSweepExperiment>(ctx.spec().params);
  const auto& sizes = p.prompt_tokens.empty() ? default_context_sizes() : p.prompt_tokens;
  const std::string name = ctx.spec().name_or_kind();
  for (LaneRuntime* lane : ctx.lanes()) {
    std::vector<record::ContextSizeRecord> rows;
    for (int64_t target : sizes) {
      if (ctx.stopped()) return;
      // The same prompts on every lane, distinct per size.
      const uint64_t seed =
          name_seed(name, static_cast<uint64_t>(target) * 1000) ^ ctx.trial_salt();
      record::ContextSizeRecord row = sweep_size(ctx, *lane, p, target, seed);
      row.target_tokens = static_cast<double>(target);
      if (!row.measured())
        ctx.info("lane " + lane->plan.id + ": " + std::to_string(target) +
                 " tokens skipped: " + row.reason);
      rows.push_back(std::move(row));
    }
    ctx.section()["lanes"][lane->plan.id]["context_sweep"] = record::to_json(rows);
    const std::optional<record::KvCapacityRecord> kv = kv_capacity(*lane);
    ctx.section()["lanes"][lane->plan.id]["kv_capacity"] =
        kv ? record::to_json(*kv) : nlohmann::json(nullptr);
  }
}

}  // namespace lb::run
