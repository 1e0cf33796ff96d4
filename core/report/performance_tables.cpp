// Performance tables of the report, each from one experiment kind's section of
// summary.json.
#include <algorithm>
#include <cmath>
#include <functional>

#include "core/record/run_summary.h"
#include "core/report/concurrency_knee.h"
#include "core/report/json_access.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

// "Throughput by concurrency", plus the experiment's name when the plan gave it one.
std::string titled(const std::string& base, const json& e, const char* kind) {
  const std::string name = string_at(e, {"name"});
  return name.empty() || name == kind ? base : base + " (" + name + ")";
}

const json& lane_of(const json& experiment, const std::string& lane) {
  return json_at(experiment, {"lanes", lane.c_str()});
}

// The throughput phase with the highest concurrency, or "" when none is a cN
// level.
std::string max_admission_phase(const json& lane_section) {
  std::string best;
  for (const auto& phase : record::phase_names_in_order(lane_section))
    if (concurrency_of(phase) > concurrency_of(best)) best = phase;
  return best;
}

// A context-sweep size's figure with its interval, from the size's phase in the lane's summary
// (its phase is named for the target size: "4096"); `decimals` < 0 for a latency in seconds.
// Without a phase (a folder an older version wrote), the size row's own median.
std::string context_figure(const json& lane_section, const json& row, const char* phase_key,
                           const char* row_key, int decimals) {
  const std::string size = format_number(number_at(row, {"target_tokens"}), 0);
  const json& phase = json_at(lane_section, {"phases", size.c_str()});
  if (phase.is_object() && phase.contains(phase_key))
    return decimals < 0 ? format_seconds_with_interval(phase, phase_key)
                        : format_with_interval(phase, phase_key, decimals);
  const double v = number_at(row, {row_key});
  return decimals < 0 ? format_seconds(v) : format_number(v, decimals);
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
  const auto throughput = folder.experiments_of_kind(record::ExperimentKind::Throughput);
  if (throughput.empty()) return;
  const json& e = *throughput.front();
  auto c1_phase = [&](const std::string& lane) -> const json& {
    return json_at(lane_of(e, lane), {"phases", "c1"});
  };
  t.rows.push_back(headline_row("c1 decode, median (tok/s)", lanes, [&](const std::string& l) {
    return format_with_interval(c1_phase(l), "median_decode_tok_s", 1);
  }));
  t.rows.push_back(headline_row("c1 E2E latency, p50 (s)", lanes, [&](const std::string& l) {
    return format_seconds_with_interval(c1_phase(l), "median_e2el_ms");
  }));
  t.rows.push_back(headline_row("c1 TTFT, p50 (s)", lanes, [&](const std::string& l) {
    return format_seconds_with_interval(c1_phase(l), "median_ttft_ms");
  }));
  t.rows.push_back(
      headline_row("Max admission, aggregate output (tok/s)", lanes, [&](const std::string& l) {
        const std::string phase = max_admission_phase(lane_of(e, l));
        if (phase.empty()) return format_number(-1, 0);
        const double v = number_at(lane_of(e, l), {"phases", phase.c_str(), "output_throughput"});
        return phase + ": " + format_number(v, 1);
      }));
}

void add_context_headlines(ReportTable& t, const RunFolder& folder,
                           const std::vector<std::string>& lanes) {
  const auto sweeps = folder.experiments_of_kind(record::ExperimentKind::ContextSweep);
  if (sweeps.empty()) return;
  const json& e = *sweeps.front();
  std::vector<long long> sizes;
  for (const auto& lane : lanes)
    for (const auto& row : json_at(lane_of(e, lane), {"context_sweep"}))
      if (const auto n = static_cast<long long>(number_at(row, {"target_tokens"})); n > 0)
        if (std::find(sizes.begin(), sizes.end(), n) == sizes.end()) sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  for (long long size : sizes)
    t.rows.push_back(headline_row(
        "TTFT at " + std::to_string(size) + " prompt tokens (s)", lanes, [&](const std::string& l) {
          for (const auto& row : json_at(lane_of(e, l), {"context_sweep"}))
            if (static_cast<long long>(number_at(row, {"target_tokens"})) == size)
              return row.value("status", "") == "measured"
                         ? context_figure(lane_of(e, l), row, "median_ttft_ms", "ttft_ms", -1)
                         : row.value("status", "n/a");
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

ReportTable throughput_table(const json& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = titled("Throughput by concurrency", e, "throughput");
  t.header = {"Lane",           "Level",         "Completed",         "Failed",
              "Output (tok/s)", "TTFT p50 (ms)", "TTFT p99 (ms)",     "TPOT p50 (ms)",
              "ITL p50 (ms)",   "E2EL p50 (s)",  "Decode p50 (tok/s)"};
  t.note =
      "[lo, hi]: 95 % interval, by bootstrap over the level's requests with one trial, over "
      "its trials (the mean of the per-trial figures) with several (summary.json names the "
      "method and resamples). With one trial, ITL and aggregate output have none: gaps within a "
      "request are not independent, and aggregate output is one number per trial.";
  for (const auto& lane : lanes)
    for (const auto& phase : record::phase_names_in_order(lane_of(e, lane))) {
      const json& p = json_at(lane_of(e, lane), {"phases", phase.c_str()});
      t.rows.push_back({lane, phase, format_number(number_at(p, {"completed"}), 0),
                        format_number(number_at(p, {"failed"}), 0),
                        format_with_interval(p, "output_throughput", 1),
                        format_with_interval(p, "median_ttft_ms", 1),
                        format_with_interval(p, "p99_ttft_ms", 1),
                        format_with_interval(p, "median_tpot_ms", 2),
                        format_number(number_at(p, {"p50_itl_ms"}), 2),
                        format_seconds_with_interval(p, "median_e2el_ms"),
                        format_with_interval(p, "median_decode_tok_s", 1)});
    }
  return t;
}

// A boolean member; false when absent or of another type (a damaged file never throws here).
bool flag_at(const json& object, const char* key) {
  const json& v = json_at(object, {key});
  return v.is_boolean() && v.get<bool>();
}

// "short; TTFT drifting up (+12 %)": what qualifies a level's steady figures.
std::string steady_note(const json& steady) {
  std::vector<std::string> parts;
  if (flag_at(steady, "short")) parts.push_back("short");
  const std::pair<const char*, const char*> figures[] = {
      {"ttft_ms", "TTFT"}, {"tpot_ms", "TPOT"}, {"output_throughput", "output"}};
  for (const auto& [key, label] : figures) {
    const json& drift = json_at(steady, {"drift", key});
    const std::string verdict = string_at(drift, {"verdict"});
    if (verdict.rfind("drifting", 0) != 0) continue;
    const double change = number_at(drift, {"change"});
    parts.push_back(std::string(label) + " " + verdict + " (" + (change > 0 ? "+" : "") +
                    format_number(100 * change, 0) + " %)");
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

// Each closed-loop level without its ramp-up and drain (docs/metrics.md, "Steady state"), beside
// the whole level's figures; no rows for a folder written before levels recorded it.
ReportTable steady_state_table(const json& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = titled("Steady state by concurrency", e, "throughput");
  t.header = {"Lane",           "Level",       "Window (s)",    "Sent in window",
              "Output (tok/s)", "Whole level", "TTFT p50 (ms)", "Whole level",
              "TPOT p50 (ms)",  "Whole level", "Note"};
  t.note =
      "The window runs from the first time 95 % of the level's streams are in flight to the "
      "last time they fall below it; TTFT and TPOT over the requests sent in it, output over the "
      "completions in it. A window shorter than max(10 s, 10 % of the level) is marked short. A "
      "figure drifts when the Mann-Kendall test over ten intervals of the window finds a trend "
      "(p < 0.05) of at least 5 % across it.";
  for (const auto& lane : lanes)
    for (const auto& phase : record::phase_names_in_order(lane_of(e, lane))) {
      const json& p = json_at(lane_of(e, lane), {"phases", phase.c_str()});
      const json& steady = json_at(p, {"steady_state"});
      if (!steady.is_object()) continue;
      if (!flag_at(steady, "found")) {
        t.rows.push_back(
            {lane, phase, "none", "", "", "", "", "", "", "",
             "fewer streams in flight than " + format_number(number_at(steady, {"threshold"}), 0)});
        continue;
      }
      const json& bounds = json_at(steady, {"window_s"});
      auto bound = [&](size_t i) {
        const bool known = bounds.is_array() && bounds.size() == 2 && bounds[i].is_number();
        return format_number(known ? bounds[i].get<double>() : NAN, 1);
      };
      const std::string window = bound(0) + "–" + bound(1) + " of " +
                                 format_number(number_at(steady, {"phase_duration"}), 1);
      t.rows.push_back({lane, phase, window,
                        format_number(number_at(steady, {"requests_started"}), 0),
                        format_number(number_at(steady, {"output_throughput"}), 1),
                        format_number(number_at(p, {"output_throughput"}), 1),
                        format_number(number_at(steady, {"median_ttft_ms"}), 1),
                        format_number(number_at(p, {"median_ttft_ms"}), 1),
                        format_number(number_at(steady, {"median_tpot_ms"}), 2),
                        format_number(number_at(p, {"median_tpot_ms"}), 2), steady_note(steady)});
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
  for (const SweepSummary& s : sweep_summaries(folder.summary, lanes)) {
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

ReportTable context_table(const json& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = titled("Context sweep", e, "context_sweep");
  t.header = {
      "Lane",           "Target tokens", "Sized tokens", "TTFT (s)", "Effective prefill (tok/s)",
      "Decode (tok/s)", "E2EL (s)",      "Retrieval"};
  bool estimated = false;
  for (const auto& lane : lanes)
    for (const auto& row : json_at(lane_of(e, lane), {"context_sweep"})) {
      const std::string target = format_number(number_at(row, {"target_tokens"}), 0);
      if (row.value("status", "") != "measured") {
        t.rows.push_back({lane, target, "", "", "", "", "", "skipped: " + row.value("reason", "")});
        continue;
      }
      const std::string prov = string_at(row, {"sized_tokens", "provenance"});
      estimated = estimated || prov == "estimated";
      std::string retrieval = "n/a";
      if (row.contains("retrieval_passed"))
        retrieval = std::string(row.value("retrieval_pass", false) ? "pass " : "fail ") +
                    format_number(number_at(row, {"retrieval_passed"}), 0) + "/" +
                    format_number(number_at(row, {"retrieval_attempts"}), 0);
      const json& section = lane_of(e, lane);
      t.rows.push_back({lane, target,
                        format_number(number_at(row, {"sized_tokens"}), 0) + " (" + prov + ")",
                        context_figure(section, row, "median_ttft_ms", "ttft_ms", -1),
                        format_number(number_at(row, {"effective_prefill_tok_s"}), 0),
                        context_figure(section, row, "median_decode_tok_s", "decode_tok_s", 1),
                        context_figure(section, row, "median_e2el_ms", "e2el_ms", -1), retrieval});
    }
  t.note =
      "Medians of each size's requests. [lo, hi]: 95 % interval, by bootstrap over the size's "
      "requests with one trial (when the plan's repeat is 2 or more), over its trials with "
      "several. "
      "Effective prefill = prompt tokens / TTFT, scheduling included.";
  if (estimated) t.note += " Some prompt sizes are estimated (the server has no /tokenize).";
  return t;
}

ReportTable kv_table(const json& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = "KV cache capacity";
  t.header = {"Lane", "KV tokens", "Full-context windows", "Cache dtype"};
  for (const auto& lane : lanes) {
    const json& kv = json_at(lane_of(e, lane), {"kv_capacity"});
    if (!kv.is_object()) continue;
    t.rows.push_back({lane, format_number(number_at(kv, {"tokens"}), 0),
                      format_number(number_at(kv, {"full_context_windows"}), 2),
                      string_at(kv, {"cache_dtype"})});
  }
  t.note = "From the server's cache config (num_gpu_blocks x block_size).";
  return t;
}

ReportTable prefix_table(const json& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = titled("Prefix cache passes", e, "prefix_cache");
  t.header = {
      "Lane",  "Pass", "TTFT p50 (s)", "Aggregate output (tok/s)", "Effective prefill (tok/s)",
      "Failed"};
  for (const auto& lane : lanes) {
    const json& pc = json_at(lane_of(e, lane), {"prefix_cache"});
    if (!pc.is_object()) continue;
    for (const char* pass : {"cold", "warm", "control"}) {
      const json& p = json_at(pc, {"passes", pass});
      if (!p.is_object()) continue;
      t.rows.push_back({lane, pass, format_seconds(number_at(p, {"median_ttft_ms"})),
                        format_number(number_at(p, {"output_tok_s"}), 1),
                        format_number(number_at(p, {"effective_prefill_tok_s"}), 0),
                        format_number(number_at(p, {"failed"}), 0)});
    }
    t.note += lane + ": reuse " +
              (json_at(pc, {"evidence", "reuse_detected"}) == true ? "detected" : "not detected") +
              " (basis: " + string_at(pc, {"evidence", "reuse_basis"}) + "). ";
  }
  return t;
}

ReportTable speculative_table(const json& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = titled("Speculative decoding", e, "speculative");
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
    const json& levels = json_at(lane_of(e, lane), {"speculative"});
    if (!levels.is_object()) continue;
    for (const auto& level : keys_by_concurrency(levels)) {
      const json& f = levels[level];
      const double speedup = number_at(f, {"vs_baseline", "decode_speedup"});
      t.rows.push_back({lane, level, format_number(number_at(f, {"decode_tok_s", "median"}), 1),
                        format_number(number_at(f, {"output_tok_s"}), 1),
                        format_number(number_at(f, {"itl_ms", "median"}), 2),
                        format_number(number_at(f, {"tokens_per_event", "mean"}), 2),
                        format_number(number_at(f, {"acceptance", "acceptance_rate"}), 3),
                        format_number(number_at(f, {"acceptance", "acceptance_length"}), 2),
                        speedup < 0 ? "n/a" : format_number(speedup, 2) + "x"});
    }
  }
  t.note = "Acceptance from /metrics deltas around each level (server).";
  return t;
}

// A trace replay per lane: what the lane did with the trace's traffic, and whether the client
// kept to the trace's schedule (a late client adds its own delay to every figure).
ReportTable trace_table(const json& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = titled("Trace replay", e, "trace");
  t.header = {"Lane",           "Sent / scheduled",  "TTFT p50 (ms)",     "TPOT p50 (ms)",
              "Output (tok/s)", "Lateness p99 (ms)", "Sent > 10 ms late", "Client kept up"};
  for (const auto& lane : lanes) {
    const json& schedule = json_at(lane_of(e, lane), {"schedule"});
    if (!schedule.is_object()) continue;
    const json& phase = json_at(lane_of(e, lane), {"phases", "trace"});
    const double late_share = number_at(schedule, {"late_share"});
    t.rows.push_back({lane,
                      format_number(number_at(schedule, {"sent"}), 0) + " / " +
                          format_number(number_at(schedule, {"scheduled"}), 0),
                      format_number(number_at(phase, {"median_ttft_ms"}), 1),
                      format_number(number_at(phase, {"median_tpot_ms"}), 2),
                      format_number(number_at(phase, {"output_throughput"}), 1),
                      format_number(number_at(schedule, {"lateness_p99_ms"}), 2),
                      late_share < 0 ? "n/a" : format_number(100 * late_share, 1) + " %",
                      json_at(schedule, {"kept_up"}) == true ? "yes" : "no"});
  }
  const json& trace = json_at(e, {"trace"});
  t.note = "Trace " + string_at(trace, {"path"}) + " (" + string_at(trace, {"format"}) + "), " +
           format_number(number_at(trace, {"requests"}), 0) + " requests replayed at " +
           format_number(number_at(trace, {"speedup"}), 2) +
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
  // The measured kinds, each kind's sections in run order; the tables not typed yet read the
  // section's JSON as this version writes it.
  for (const K kind : {K::Throughput, K::ContextSweep, K::PrefixCache, K::Speculative, K::Trace}) {
    if (kind == K::ContextSweep) tables.push_back(sweep_table(folder, lanes));
    for (const record::ExperimentSection* e : folder.record.of_kind(kind)) {
      const json section = record::to_json(*e);
      switch (kind) {
        case K::Throughput:
          tables.push_back(throughput_table(section, lanes));
          if (ReportTable steady = steady_state_table(section, lanes); !steady.rows.empty())
            tables.push_back(std::move(steady));
          break;
        case K::ContextSweep:
          tables.push_back(context_table(section, lanes));
          if (ReportTable kv = kv_table(section, lanes); !kv.rows.empty())
            tables.push_back(std::move(kv));
          break;
        case K::PrefixCache:
          tables.push_back(prefix_table(section, lanes));
          break;
        case K::Speculative:
          tables.push_back(speculative_table(section, lanes));
          break;
        case K::Trace:
          tables.push_back(trace_table(section, lanes));
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
