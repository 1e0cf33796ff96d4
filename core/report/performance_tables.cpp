// Performance tables of the report, each from one experiment kind's section of the run's
// record.
#include <algorithm>
#include <cmath>
#include <functional>

#include "core/record/phase_name.h"
#include "core/record/run_summary.h"
#include "core/report/concurrency_knee.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using record::ExperimentSection;
using record::LaneRecord;
using record::PhaseRecord;

// The throughput phase with the highest concurrency, or nullptr when none is a cN level.
const PhaseRecord* max_admission_phase(const LaneRecord& lane) {
  const PhaseRecord* best = nullptr;
  for (const PhaseRecord& phase : lane.phases)
    if (record::concurrency_of(phase.name) > (best ? record::concurrency_of(best->name) : -1))
      best = &phase;
  return best;
}

// A context-sweep size's figure with its interval, from the size's phase in the lane's record
// (its phase is named for the target size: "4096"); `decimals` < 0 for a latency in seconds.
// Without a phase (a folder an older version wrote), the size row's own median.
std::string context_figure(const LaneRecord& lane, const record::ContextSizeRecord& row,
                           const char* phase_key, double row_value, int decimals) {
  const PhaseRecord* phase = lane.phase(format_number(row.target_tokens, 0));
  if (phase && std::isfinite(phase_figure(phase, phase_key)))
    return decimals < 0 ? format_seconds_with_interval(phase, phase_key)
                        : format_with_interval(phase, phase_key, decimals);
  return decimals < 0 ? format_seconds(row_value) : format_number(row_value, decimals);
}

std::vector<std::string> headline_row(const std::string& label,
                                      const std::vector<std::string>& lanes,
                                      const std::function<std::string(const std::string&)>& cell) {
  std::vector<std::string> row{label};
  for (const auto& lane : lanes) row.push_back(cell(lane));
  return row;
}

void add_throughput_headlines(ReportTable& t, const RunFolder& folder,
                              const std::vector<std::string>& lanes) {
  const auto throughput = folder.record.of_kind(record::ExperimentKind::Throughput);
  if (throughput.empty()) return;
  const ExperimentSection& e = *throughput.front();
  t.rows.push_back(headline_row("c1 decode, median (tok/s)", lanes, [&](const std::string& l) {
    return format_with_interval(e.phase(l, "c1"), "median_decode_tok_s", 1);
  }));
  t.rows.push_back(headline_row("c1 E2E latency, p50 (s)", lanes, [&](const std::string& l) {
    return format_seconds_with_interval(e.phase(l, "c1"), "median_e2el_ms");
  }));
  t.rows.push_back(headline_row("c1 TTFT, p50 (s)", lanes, [&](const std::string& l) {
    return format_seconds_with_interval(e.phase(l, "c1"), "median_ttft_ms");
  }));
  t.rows.push_back(
      headline_row("Max admission, aggregate output (tok/s)", lanes, [&](const std::string& l) {
        const LaneRecord* lane = e.lane(l);
        const PhaseRecord* phase = lane ? max_admission_phase(*lane) : nullptr;
        if (!phase) return format_number(-1, 0);
        return phase->name + ": " + format_number(phase->figures.output_throughput, 1);
      }));
}

void add_context_headlines(ReportTable& t, const RunFolder& folder,
                           const std::vector<std::string>& lanes) {
  const auto sweeps = folder.record.of_kind(record::ExperimentKind::ContextSweep);
  if (sweeps.empty()) return;
  const ExperimentSection& e = *sweeps.front();
  std::vector<long long> sizes;
  for (const auto& lane : lanes)
    if (const LaneRecord* l = e.lane(lane))
      for (const auto& row : l->context_sweep())
        if (row.target_tokens > 0 && row.target_tokens < 1e15)
          if (const auto n = static_cast<long long>(row.target_tokens);
              std::find(sizes.begin(), sizes.end(), n) == sizes.end())
            sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  for (long long size : sizes)
    t.rows.push_back(headline_row(
        "TTFT at " + std::to_string(size) + " prompt tokens (s)", lanes, [&](const std::string& l) {
          const LaneRecord* lane = e.lane(l);
          if (lane)
            for (const auto& row : lane->context_sweep())
              if (row.target_tokens == static_cast<double>(size))
                return row.measured()
                           ? context_figure(*lane, row, "median_ttft_ms", row.ttft_ms, -1)
                       : row.status.empty() ? std::string("n/a")
                                            : row.status;
          return format_number(-1, 0);
        }));
}

ReportTable headline_table(const RunFolder& folder) {
  ReportTable t;
  t.title = "Headline figures";
  const auto lanes = folder.lane_ids();
  t.header.push_back("Figure");
  t.header.insert(t.header.end(), lanes.begin(), lanes.end());
  add_throughput_headlines(t, folder, lanes);
  add_context_headlines(t, folder, lanes);
  t.note =
      "Latencies and decode rates are measured on the client clock; "
      "decode = 1 / TPOT. [lo, hi]: 95 % bootstrap interval over the level's requests; aggregate "
      "output has none with one trial.";
  return t;
}

ReportTable throughput_table(const ExperimentSection& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = section_title("Throughput by concurrency", e);
  t.header = {"Lane",           "Level",         "Completed",         "Failed",
              "Output (tok/s)", "TTFT p50 (ms)", "TTFT p99 (ms)",     "TPOT p50 (ms)",
              "ITL p50 (ms)",   "E2EL p50 (s)",  "Decode p50 (tok/s)"};
  t.note =
      "[lo, hi]: 95 % interval, by bootstrap over the level's requests with one trial, over "
      "its trials (the mean of the per-trial figures) with several (summary.json names the "
      "method and resamples). With one trial, ITL and aggregate output have none: gaps within a "
      "request are not independent, and aggregate output is one number per trial.";
  for (const auto& lane : lanes) {
    const LaneRecord* l = e.lane(lane);
    if (!l) continue;
    for (const PhaseRecord& p : l->phases)
      t.rows.push_back({lane, p.name, format_number(static_cast<double>(p.figures.completed), 0),
                        format_number(static_cast<double>(p.figures.failed), 0),
                        format_with_interval(&p, "output_throughput", 1),
                        format_with_interval(&p, "median_ttft_ms", 1),
                        format_with_interval(&p, "p99_ttft_ms", 1),
                        format_with_interval(&p, "median_tpot_ms", 2),
                        format_number(p.figures.itl_ms.p50, 2),
                        format_seconds_with_interval(&p, "median_e2el_ms"),
                        format_with_interval(&p, "median_decode_tok_s", 1)});
  }
  return t;
}

// "short; TTFT drifting up (+12 %)": what qualifies a level's steady figures.
std::string steady_note(const record::SteadyStateRecord& steady) {
  std::vector<std::string> parts;
  if (steady.short_window) parts.push_back("short");
  const std::pair<const record::DriftRecord*, const char*> figures[] = {
      {&steady.ttft_drift, "TTFT"}, {&steady.tpot_drift, "TPOT"}, {&steady.output_drift, "output"}};
  for (const auto& [drift, label] : figures) {
    if (!drift->drifting()) continue;
    const double change = drift->change;
    parts.push_back(std::string(label) + " " + drift->verdict + " (" + (change > 0 ? "+" : "") +
                    format_number(100 * change, 0) + " %)");
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

// Each closed-loop level without its ramp-up and drain (docs/metrics.md, "Steady state"), beside
// the whole level's figures; no rows for a folder written before levels recorded it.
ReportTable steady_state_table(const ExperimentSection& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = section_title("Steady state by concurrency", e);
  t.header = {"Lane",           "Level",       "Window (s)",    "Sent in window",
              "Output (tok/s)", "Whole level", "TTFT p50 (ms)", "Whole level",
              "TPOT p50 (ms)",  "Whole level", "Note"};
  t.note =
      "The window runs from the first time 95 % of the level's streams are in flight to the "
      "last time they fall below it; TTFT and TPOT over the requests sent in it, output over the "
      "completions in it. A window shorter than max(10 s, 10 % of the level) is marked short. A "
      "figure drifts when the Mann-Kendall test over ten intervals of the window finds a trend "
      "(p < 0.05) of at least 5 % across it.";
  for (const auto& lane : lanes) {
    const LaneRecord* l = e.lane(lane);
    if (!l) continue;
    for (const PhaseRecord& p : l->phases) {
      const std::optional<record::SteadyStateRecord> steady = p.steady_state();
      if (!steady) continue;
      if (!steady->found) {
        t.rows.push_back({lane, p.name, "none", "", "", "", "", "", "", "",
                          "fewer streams in flight than " + format_number(steady->threshold, 0)});
        continue;
      }
      auto bound = [&](bool second) {
        return format_number(
            steady->window_s ? (second ? steady->window_s->second : steady->window_s->first) : NAN,
            1);
      };
      const std::string window =
          bound(false) + "–" + bound(true) + " of " + format_number(steady->phase_duration_s, 1);
      const metrics::LaneSummary& whole = p.figures;
      t.rows.push_back(
          {lane, p.name, window, format_number(steady->requests_started, 0),
           format_number(steady->output_throughput, 1), format_number(whole.output_throughput, 1),
           format_number(steady->median_ttft_ms, 1), format_number(whole.ttft_ms.median, 1),
           format_number(steady->median_tpot_ms, 2), format_number(whole.tpot_ms.median, 2),
           steady_note(*steady)});
    }
  }
  return t;
}

// Where each lane's throughput stopped scaling, and why a doubling sweep stopped.
ReportTable sweep_table(const RunFolder& folder, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = "Concurrency sweep: knee and stop";
  t.header = {"Lane",
              "Sweep",
              "Knee (streams)",
              "Output at knee (tok/s)",
              "E2EL p99 at knee (s)",
              "Stopped at (streams)",
              "Why it stopped"};
  double min_gain = -1;
  for (const SweepSummary& s : sweep_summaries(folder.record, lanes)) {
    min_gain = s.min_gain;
    std::string knee = s.knee_concurrency ? std::to_string(*s.knee_concurrency) : "n/a";
    if (s.knee_concurrency && !s.knee_reached) knee += " (not reached)";
    t.rows.push_back({s.lane, s.mode, knee, format_number(s.knee_output_tok_s, 1),
                      format_seconds(s.knee_e2el_p99_ms),
                      s.stopped_at ? std::to_string(*s.stopped_at) : "—",
                      s.stop_detail.empty() ? "—" : s.stop_detail});
  }
  t.note = "Knee: the last level before the first whose aggregate output gained less than " +
           format_number(min_gain * 100, 0) +
           " % over the level before it (or that had errors); \"not reached\": output still "
           "gained at the last level measured. Client-measured.";
  return t;
}

// "pass 3/3", "fail 1/3" or "n/a": a size's needle retrieval.
std::string retrieval_cell(const record::ContextSizeRecord& row) {
  if (std::isnan(row.retrieval_passed)) return "n/a";
  return std::string(row.retrieval_pass.value_or(false) ? "pass " : "fail ") +
         format_number(row.retrieval_passed, 0) + "/" + format_number(row.retrieval_attempts, 0);
}

ReportTable context_table(const ExperimentSection& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = section_title("Context sweep", e);
  t.header = {
      "Lane",           "Target tokens", "Sized tokens", "TTFT (s)", "Effective prefill (tok/s)",
      "Decode (tok/s)", "E2EL (s)",      "Retrieval"};
  bool estimated = false;
  for (const auto& lane : lanes) {
    const LaneRecord* l = e.lane(lane);
    if (!l) continue;
    for (const record::ContextSizeRecord& row : l->context_sweep()) {
      const std::string target = format_number(row.target_tokens, 0);
      if (!row.measured()) {
        t.rows.push_back({lane, target, "", "", "", "", "", "skipped: " + row.reason});
        continue;
      }
      estimated = estimated || row.sized_provenance == "estimated";
      t.rows.push_back(
          {lane, target, format_number(row.sized_tokens, 0) + " (" + row.sized_provenance + ")",
           context_figure(*l, row, "median_ttft_ms", row.ttft_ms, -1),
           format_number(row.effective_prefill_tok_s, 0),
           context_figure(*l, row, "median_decode_tok_s", row.decode_tok_s, 1),
           context_figure(*l, row, "median_e2el_ms", row.e2el_ms, -1), retrieval_cell(row)});
    }
  }
  t.note =
      "Medians of each size's requests. [lo, hi]: 95 % interval, by bootstrap over the size's "
      "requests with one trial (when the plan's repeat is 2 or more), over its trials with "
      "several. "
      "Effective prefill = prompt tokens / TTFT, scheduling included.";
  if (estimated) t.note += " Some prompt sizes are estimated (the server has no /tokenize).";
  return t;
}

ReportTable kv_table(const ExperimentSection& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = "KV cache capacity";
  t.header = {"Lane", "KV tokens", "Full-context windows", "Cache dtype"};
  for (const auto& lane : lanes) {
    const LaneRecord* l = e.lane(lane);
    const std::optional<record::KvCapacityRecord> kv = l ? l->kv_capacity() : std::nullopt;
    if (!kv) continue;
    t.rows.push_back({lane, format_number(kv->tokens, 0),
                      format_number(kv->full_context_windows, 2), kv->cache_dtype});
  }
  t.note = "From the server's cache config (num_gpu_blocks x block_size).";
  return t;
}

ReportTable prefix_table(const ExperimentSection& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = section_title("Prefix cache passes", e);
  t.header = {
      "Lane",  "Pass", "TTFT p50 (s)", "Aggregate output (tok/s)", "Effective prefill (tok/s)",
      "Failed"};
  for (const auto& lane : lanes) {
    const LaneRecord* l = e.lane(lane);
    const std::optional<record::PrefixCacheRecord> pc = l ? l->prefix_cache() : std::nullopt;
    if (!pc) continue;
    for (const record::PrefixPassRecord& p : pc->passes)
      t.rows.push_back({lane, p.name, format_seconds(p.median_ttft_ms),
                        format_number(p.output_tok_s, 1),
                        format_number(p.effective_prefill_tok_s, 0), format_number(p.failed, 0)});
    t.note += lane + ": reuse " + (pc->reuse_detected == true ? "detected" : "not detected") +
              " (basis: " + pc->reuse_basis + "). ";
  }
  return t;
}

ReportTable speculative_table(const ExperimentSection& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = section_title("Speculative decoding", e);
  t.header = {"Lane",
              "Level",
              "Decode p50 (tok/s)",
              "Output (tok/s)",
              "ITL p50 (ms)",
              "Tokens/event (mean)",
              "Acceptance rate",
              "Acceptance length",
              "Decode vs baseline"};
  for (const auto& lane : lanes) {
    const LaneRecord* l = e.lane(lane);
    if (!l) continue;
    for (const record::SpeculativeLevelRecord& f : l->speculative())
      t.rows.push_back({lane, f.level, format_number(f.decode_tok_s_median(), 1),
                        format_number(f.output_tok_s, 1), format_number(f.itl_ms_median(), 2),
                        format_number(f.tokens_per_event_mean(), 2),
                        format_number(f.acceptance_rate(), 3),
                        format_number(f.acceptance_length(), 2),
                        f.decode_speedup >= 0 ? format_number(f.decode_speedup, 2) + "x" : "n/a"});
  }
  t.note = "Acceptance from /metrics deltas around each level (server).";
  return t;
}

// A trace replay per lane: what the lane did with the trace's traffic, and whether the client
// kept to the trace's schedule (a late client adds its own delay to every figure).
ReportTable trace_table(const ExperimentSection& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = section_title("Trace replay", e);
  t.header = {"Lane",           "Sent / scheduled",  "TTFT p50 (ms)",     "TPOT p50 (ms)",
              "Output (tok/s)", "Lateness p99 (ms)", "Sent > 10 ms late", "Client kept up"};
  for (const auto& lane : lanes) {
    const LaneRecord* l = e.lane(lane);
    const std::optional<record::TraceScheduleRecord> schedule =
        l ? l->trace_schedule() : std::nullopt;
    if (!schedule) continue;
    const PhaseRecord* phase = l->phase("trace");
    t.rows.push_back(
        {lane, format_number(schedule->sent, 0) + " / " + format_number(schedule->scheduled, 0),
         format_number(phase ? phase->figures.ttft_ms.median : NAN, 1),
         format_number(phase ? phase->figures.tpot_ms.median : NAN, 2),
         format_number(phase ? phase->figures.output_throughput : NAN, 1),
         format_number(schedule->lateness_p99_ms, 2),
         schedule->late_share >= 0 ? format_number(100 * schedule->late_share, 1) + " %" : "n/a",
         schedule->kept_up == true ? "yes" : "no"});
  }
  const record::TraceSourceRecord trace = e.trace().value_or(record::TraceSourceRecord{});
  t.note = "Trace " + trace.path + " (" + trace.format + "), " + format_number(trace.requests, 0) +
           " requests replayed at " + format_number(trace.speedup, 2) +
           "x. The client kept up when at most 1 % of requests were sent over 10 ms late.";
  return t;
}

// The tables every measured experiment ends with: energy and cost, lane comparisons, performance
// gates.
void add_closing_tables(std::vector<ReportTable>& tables, const record::ExperimentSection& e,
                        const std::vector<std::string>& lanes) {
  tables.push_back(energy_cost_table(e, lanes));
  tables.push_back(lane_comparisons_table(e));
  tables.push_back(performance_gates_table(e));
}

}  // namespace

std::vector<ReportTable> performance_tables(const RunFolder& folder) {
  using K = record::ExperimentKind;
  const auto lanes = folder.lane_ids();
  std::vector<ReportTable> tables;
  ReportTable head = headline_table(folder);
  if (!head.rows.empty()) tables.push_back(std::move(head));
  for (ReportTable& t : token_fidelity_tables(folder)) tables.push_back(std::move(t));
  for (ReportTable& t : sampled_review_tables(folder)) tables.push_back(std::move(t));
  if (ReportTable load = load_baseline_table(folder); !load.rows.empty())
    tables.push_back(std::move(load));
  for (ReportTable& t : determinism_tables(folder)) tables.push_back(std::move(t));
  // The measured kinds, each kind's sections in run order.
  for (const K kind : {K::Throughput, K::ContextSweep, K::PrefixCache, K::Speculative, K::Trace}) {
    if (kind == K::ContextSweep) tables.push_back(sweep_table(folder, lanes));
    for (const record::ExperimentSection* e : folder.record.of_kind(kind)) {
      switch (kind) {
        case K::Throughput:
          tables.push_back(throughput_table(*e, lanes));
          if (ReportTable steady = steady_state_table(*e, lanes); !steady.rows.empty())
            tables.push_back(std::move(steady));
          break;
        case K::ContextSweep:
          tables.push_back(context_table(*e, lanes));
          if (ReportTable kv = kv_table(*e, lanes); !kv.rows.empty())
            tables.push_back(std::move(kv));
          break;
        case K::PrefixCache:
          tables.push_back(prefix_table(*e, lanes));
          break;
        case K::Speculative:
          tables.push_back(speculative_table(*e, lanes));
          break;
        case K::Trace:
          tables.push_back(trace_table(*e, lanes));
          break;
        default:
          break;
      }
      add_closing_tables(tables, *e, lanes);
    }
  }
  for (ReportTable& t : session_tables(folder)) tables.push_back(std::move(t));
  for (ReportTable& t : multimodal_tables(folder)) tables.push_back(std::move(t));
  for (ReportTable& t : capacity_tables(folder)) tables.push_back(std::move(t));
  std::erase_if(tables, [](const ReportTable& t) { return t.rows.empty(); });
  return tables;
}

}  // namespace lb::report
