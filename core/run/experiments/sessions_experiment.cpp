#include "core/run/experiments/sessions_experiment.h"

#include <algorithm>
#include <cmath>
#include <variant>

#include "core/plan/sharegpt_file.h"
#include "core/plan/synthetic_prompt.h"
#include "core/run/drive/session_driver.h"
#include "core/run/drive/synthetic_requests.h"
#include "core/run/experiments/pass_counters.h"

namespace lb::run {
namespace {

// User turns and system prompts come from separate index ranges of one seed, so no user turn
// repeats a system prompt's words.
constexpr int64_t kUserTextIndexBase = int64_t{1} << 40;

std::string synthetic_text(int64_t budget, uint64_t seed, int64_t index) {
  plan::SyntheticPromptSpec spec;
  spec.target_tokens = std::max<int64_t>(1, budget);
  spec.seed = seed;
  spec.index = index;
  return plan::synthetic_prompt(spec);
}

// Each session has a system prompt of its own, so its first turn finds nothing in a prefix cache
// and turn 0 against later turns is the cache's effect within a session.
std::vector<SessionScript> synthetic_scripts(ExperimentContext& ctx, LaneRuntime& lane,
                                             const plan::SessionsExperiment& p, uint64_t seed) {
  const int64_t system_budget =
      p.system_prompt_tokens > 0
          ? synthetic_budget(ctx.client(), lane, p.system_prompt_tokens, p.use_tokenize)
          : 0;
  const int64_t user_budget =
      synthetic_budget(ctx.client(), lane, p.user_tokens_per_turn, p.use_tokenize);
  const int64_t count = p.total_sessions > 0 ? p.total_sessions : p.sessions;
  std::vector<SessionScript> scripts(static_cast<size_t>(count));
  for (int64_t s = 0; s < count; ++s) {
    SessionScript& script = scripts[static_cast<size_t>(s)];
    if (system_budget > 0) script.system_prompt = synthetic_text(system_budget, seed, s);
    for (int64_t t = 0; t < p.turns; ++t)
      script.user_turns.push_back(
          synthetic_text(user_budget, seed, kUserTextIndexBase + s * p.turns + t));
  }
  return scripts;
}

std::optional<std::vector<SessionScript>> sharegpt_scripts(ExperimentContext& ctx,
                                                           const plan::SessionsExperiment& p) {
  // The conversations the plan's check read; a plan given without that check reads them here.
  const std::shared_ptr<const plan::ConversationReadResult> loaded =
      p.conversations ? p.conversations
                      : std::make_shared<const plan::ConversationReadResult>(
                            plan::read_sharegpt_file(p.path, p.total_sessions));
  const plan::ConversationReadResult& read = *loaded;
  if (!read.ok()) {
    ctx.sink().on_message(MessageLevel::Error, "sessions: " + read.error_text());
    ctx.section()["error"] = read.errors;
    return std::nullopt;
  }
  std::vector<SessionScript> scripts;
  for (const auto& c : read.conversations) {
    SessionScript script{c.system_prompt, c.user_turns};
    if (p.max_turns > 0 && static_cast<int64_t>(script.user_turns.size()) > p.max_turns)
      script.user_turns.resize(static_cast<size_t>(p.max_turns));
    scripts.push_back(std::move(script));
  }
  ctx.section()["conversations"] = {
      {"path", p.path}, {"sessions", scripts.size()}, {"skipped_without_user_turn", read.skipped}};
  return scripts;
}

SessionPhase session_phase(const ExperimentContext& ctx, const LaneRuntime& lane,
                           const plan::SessionsExperiment& p, std::vector<SessionScript> scripts) {
  SessionPhase phase;
  phase.base = ctx.prepared(lane_phase(ctx, lane, "sessions"));
  phase.base.concurrency = static_cast<int>(p.sessions);
  phase.scripts = std::move(scripts);
  phase.options.model = lane.endpoint.model;
  phase.options.max_tokens = p.output_tokens;
  phase.options.temperature = 0;
  phase.options.ignore_eos = p.ignore_eos && lane.probe.supports_ignore_eos();
  phase.options.server = lane.probe.kind;
  phase.think_time_ns = std::llround(p.think_time_s * 1e9);
  return phase;
}

// The server's prefix-cache counters over the whole phase: the hit rate of every turn together,
// for servers whose usage does not report cached tokens.
std::optional<record::SessionCountersRecord> counter_record(
    const std::optional<metrics::CounterDelta>& delta) {
  if (!delta || !delta->prefix_cache_hits || !delta->prefix_cache_queries) return std::nullopt;
  record::SessionCountersRecord r{*delta->prefix_cache_hits, *delta->prefix_cache_queries};
  if (*delta->prefix_cache_queries > 0)
    r.hit_rate = *delta->prefix_cache_hits / *delta->prefix_cache_queries;
  return r;
}

}  // namespace

void SessionsExperiment::run(ExperimentContext& ctx) {
  const auto& p = std::get<plan::SessionsExperiment>(ctx.spec().params);
  const std::string name = ctx.spec().name_or_kind();
  std::optional<std::vector<SessionScript>> file_scripts;
  if (!p.path.empty()) {
    file_scripts = sharegpt_scripts(ctx, p);
    if (!file_scripts) return;
  }
  for (LaneRuntime* lane : ctx.lanes()) {
    if (ctx.stopped()) return;
    std::vector<SessionScript> scripts =
        file_scripts ? *file_scripts
                     : synthetic_scripts(ctx, *lane, p, name_seed(name) ^ ctx.trial_salt());
    const size_t count = scripts.size();
    PassCounters counters(ctx, *lane);
    const SessionPhase phase = session_phase(ctx, *lane, p, std::move(scripts));
    const PhaseOutcome outcome = ctx.run_phase_with(
        phase.base, [&](RunSink& sink, const LoadDriver::RecordHandler& on_record) {
          return SessionDriver(ctx.client(), sink, ctx.stop_flag()).run(phase, on_record);
        });
    record::SessionsRecord figures = session_figures(outcome.records, count);
    figures.prefix_cache_counters = counter_record(counters.finish());
    figures.think_time_s = p.think_time_s;
    figures.sessions_at_once = static_cast<double>(p.sessions);
    ctx.section()["lanes"][lane->plan.id]["sessions"] = record::to_json(figures);
  }
}

}  // namespace lb::run
