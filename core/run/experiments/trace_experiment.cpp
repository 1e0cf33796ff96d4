#include "core/run/experiments/trace_experiment.h"

#include <cmath>
#include <cstdio>
#include <variant>

#include "core/metrics/percentile.h"
#include "core/plan/trace_file.h"
#include "core/run/drive/synthetic_requests.h"
#include "core/run/drive/trace_requests.h"
#include "core/run/experiments/pass_counters.h"

namespace lb::run {
namespace {

record::TraceSourceRecord trace_record(const plan::TraceExperiment& p, const plan::Trace& trace,
                                       const std::vector<int64_t>& schedule_ns) {
  const int64_t trace_span_ns = trace.requests.empty() ? 0 : trace.requests.back().offset_ns;
  record::TraceSourceRecord r;
  r.path = p.path;
  r.format = plan::to_string(trace.format);
  r.requests = static_cast<double>(trace.requests.size());
  r.skipped_rows = static_cast<double>(trace.skipped_rows);
  r.skipped = trace.skipped;
  r.truncated = trace.truncated;
  r.speedup = p.speedup;
  r.trace_span_s = static_cast<double>(trace_span_ns) / 1e9;
  r.replay_span_s = schedule_ns.empty() ? 0.0 : static_cast<double>(schedule_ns.back()) / 1e9;
  return r;
}

// Tokens of the prompt sized against the lane's /tokenize to find its tokens per character.
constexpr int64_t kSizingTokens = 4096;

LoadPhase trace_phase(const ExperimentContext& ctx, const LaneRuntime& lane,
                      const plan::TraceExperiment& p, std::shared_ptr<const plan::Trace> trace,
                      std::vector<int64_t> schedule_ns, double scale) {
  LoadPhase phase = lane_phase(ctx, lane, "trace");
  phase.concurrency = 0;  // open loop: the trace decides how many are in flight
  phase.count = static_cast<int64_t>(schedule_ns.size());
  phase.schedule_ns = std::move(schedule_ns);
  ChatRequestOptions options;
  options.model = lane.endpoint.model;
  options.temperature = 0;
  options.ignore_eos = p.ignore_eos && lane.probe.supports_ignore_eos();
  options.server = lane.probe.kind;
  options.top_logprobs = ctx.spec().logprobs;
  phase.request_at = trace_requests(std::move(trace), name_seed(phase.experiment), options, scale);
  return phase;
}

// A client that fell behind adds its own delay to every figure of the lane: say so.
void say_whether_kept_up(ExperimentContext& ctx, const std::string& lane,
                         const record::TraceScheduleRecord& adherence) {
  char figures[96];
  std::snprintf(figures, sizeof figures, "%.1f %% sent over %.0f ms late, lateness p99 %.2f ms",
                100.0 * adherence.late_share, kLateThresholdMs,
                std::isfinite(adherence.lateness_p99_ms) ? adherence.lateness_p99_ms : 0.0);
  if (adherence.kept_up == true) {
    ctx.info("lane " + lane + ": the client kept up with the trace (" + figures + ")");
  } else {
    ctx.warn("lane " + lane + ": the client did not keep up with the trace (" + figures +
             "); the lane's figures include the client's own delay");
  }
}

}  // namespace

record::TraceScheduleRecord schedule_adherence(const PhaseOutcome& outcome, size_t scheduled) {
  std::vector<double> lateness_ms;
  size_t late = 0;
  for (const auto& r : outcome.records) {
    if (r.result.t_sent_ns <= 0 || r.t_sched_ns <= 0) continue;
    const double ms = static_cast<double>(r.result.t_sent_ns - r.t_sched_ns) / 1e6;
    lateness_ms.push_back(ms);
    if (ms > kLateThresholdMs) ++late;
  }
  const size_t sent = lateness_ms.size();
  const double late_share = sent > 0 ? static_cast<double>(late) / static_cast<double>(sent) : 0;
  const metrics::Distribution d = metrics::describe(std::move(lateness_ms));
  const bool kept_up = !outcome.interrupted && sent > 0 && late_share <= kKeptUpMaxLateShare;
  record::TraceScheduleRecord r;
  r.scheduled = static_cast<double>(scheduled);
  r.sent = static_cast<double>(sent);
  r.lateness_p50_ms = d.p50;
  r.lateness_p99_ms = d.p99;
  r.lateness_max_ms = d.max;
  r.late_threshold_ms = kLateThresholdMs;
  r.late_share = late_share;
  r.kept_up = kept_up;
  r.kept_up_rule = "at most 1 % of the sent requests more than 10 ms late, run not stopped";
  r.provenance = metrics::to_string(metrics::Provenance::Measured);
  return r;
}

void TraceExperiment::run(ExperimentContext& ctx) {
  const auto& p = std::get<plan::TraceExperiment>(ctx.spec().params);
  // The rows the plan's check read; a plan given without that check reads the file here.
  std::shared_ptr<const plan::Trace> trace = p.rows;
  if (!trace) {
    auto read = plan::read_trace_file(p.path, plan::trace_read_options(p));
    if (!read.ok()) {
      ctx.sink().on_message(MessageLevel::Error, "trace: " + read.error_text());
      ctx.section()["error"] = read.errors;
      return;
    }
    trace = std::make_shared<const plan::Trace>(std::move(*read.trace));
  }
  const std::vector<int64_t> schedule_ns = trace_schedule_ns(*trace, p.speedup);
  ctx.section()["trace"] = record::to_json(trace_record(p, *trace, schedule_ns));
  if (trace->skipped_rows > 0)
    ctx.warn("trace " + p.path + ": skipped " + std::to_string(trace->skipped_rows) +
             " bad rows, the first: " + trace->skipped.front());
  for (LaneRuntime* lane : ctx.lanes()) {
    if (ctx.stopped()) return;
    if (p.ignore_eos && !lane->probe.supports_ignore_eos())
      ctx.warn("lane " + lane->plan.id + " (" + to_string(lane->probe.kind) +
               ") is not known to accept ignore_eos: requests may stop before the trace's "
               "output lengths");
    // Sized before the replay starts, so no /tokenize call delays a scheduled send.
    const double scale =
        static_cast<double>(synthetic_budget(ctx.client(), *lane, kSizingTokens, p.use_tokenize)) /
        static_cast<double>(kSizingTokens);
    const PhaseOutcome outcome =
        ctx.run_phase(trace_phase(ctx, *lane, p, trace, schedule_ns, scale));
    const record::TraceScheduleRecord adherence = schedule_adherence(outcome, schedule_ns.size());
    say_whether_kept_up(ctx, lane->plan.id, adherence);
    ctx.section()["lanes"][lane->plan.id]["schedule"] = record::to_json(adherence);
  }
}

}  // namespace lb::run
