#pragma once
// What a qualification report says, as plain data: built once from a run folder, then rendered
// by each writer (Markdown, HTML, PDF) so every format carries the same content and numbers.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/report/artifact_records.h"
#include "core/report/decision_record.h"
#include "core/report/gate_table.h"
#include "core/report/run_folder.h"

namespace lb::report {

struct ReportTable {
  std::string title;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::string note;  // provenance or caveat under the table; may be empty
};

// A point's outcome where the chart marks one (the context sweep's needle retrieval).
enum class PointMark : unsigned char { None, Pass, Fail };

struct ChartSeries {
  std::string name;                               // lane id
  std::string color;                              // "#0072B2": the lane's colour in the GUI palette
  std::vector<std::pair<double, double>> points;  // (x, y) in the chart's axis units
  std::vector<PointMark> marks;                   // per point; empty when none is marked
  // Per point, the 95 % interval (lo, hi) in y units, drawn as an error bar (and a band along a
  // line); empty when the series has none, NaN bounds where a point has none.
  std::vector<std::pair<double, double>> intervals;
};

// "Throughput by concurrency (long run)": BASE and the experiment's name, which is left out when
// the plan gave none (the name is then the kind's).
std::string section_title(const std::string& base, const record::ExperimentSection& experiment);
// The interval of figure `key` (summary.json's key: "median_ttft_ms") of a phase, times scale;
// NaN bounds without the phase or when it has none for it.
std::pair<double, double> phase_interval(const record::PhaseRecord* phase, const char* key,
                                         double scale = 1);
// The figure `key` of a phase: over trials, its interval's estimate (the mean of the per-trial
// figures); NaN (or negative) without the phase or when it could not be measured.
double phase_figure(const record::PhaseRecord* phase, const char* key);

struct ChartSpec {
  std::string id;  // e.g. "ttft_vs_context"; may carry a summary's strings (a sweep's figure)
  std::string title;
  std::string x_title;  // with units, e.g. "prompt tokens"
  std::string y_title;  // with units, e.g. "TTFT (s)"
  bool log_x = false;
  std::vector<ChartSeries> series;
  // Non-empty: grouped bars, one group per category, a point's x its category's index.
  std::vector<std::string> categories;
  std::string note;  // one line under the legend: what the marks mean, where figures come from
};

// The stem of the chart's files (charts/<stem>.svg, .png): its id made file-safe.
std::string chart_file_stem(const ChartSpec& chart);

struct LaneInfo {
  std::string id;
  std::string color;
  std::vector<std::pair<std::string, std::string>> notes;        // serving notes
  std::vector<std::pair<std::string, std::string>> environment;  // manifest: model, server, ...
};

struct ReviewedPair {
  std::string baseline;
  std::string candidate;
  std::size_t index = 0;
  std::string prompt_id;
  std::string triage;   // "identical", "near_identical", "divergent"
  double ratio = 0;     // difflib ratio
  std::string verdict;  // "unreviewed", "benign_drift", ...
  std::string note;     // the reviewer's note
  std::string text_a;   // outputs, possibly shortened (text_cut says so)
  std::string text_b;
  bool text_cut = false;
};

struct ReportModel {
  std::string title;
  std::string run_name;
  std::string started_at;
  std::string finished_at;
  bool complete = false;
  std::optional<DecisionRecord> decision;
  std::vector<LaneInfo> lanes;
  GateTable gates;
  std::vector<ArtifactRecord> artifacts;  // checkpoint verifications attached to the run
  std::vector<ReportTable> performance;
  std::vector<ChartSpec> charts;
  std::vector<ReviewedPair> pairs;
  std::size_t pairs_left_out = 0;  // non-identical pairs beyond the report's limit
  std::vector<std::string> caveats;
  std::string reproduce_command;
};

ReportModel build_report_model(const RunFolder& folder);

// Parts of the model, each from its own file.
std::vector<ReportTable> performance_tables(const RunFolder& folder);
std::vector<ChartSpec> report_charts(const RunFolder& folder);
// Token fidelity of each regression candidate (counts by class) and its confident changes;
// empty when no lane pair recorded logprobs.
std::vector<ReportTable> token_fidelity_tables(const RunFolder& folder);
// One table per sampled_regression candidate: each prompt's similarity distributions, result,
// fact loss per lane and verdict (sampled_review_tables.cpp).
std::vector<ReportTable> sampled_review_tables(const RunFolder& folder);
// Multi-turn sessions: TTFT and cached share per turn index, per lane (session_tables.cpp).
std::vector<ReportTable> session_tables(const RunFolder& folder);
// The multimodal gate per lane: result and n/N per input kind (multimodal_tables.cpp).
std::vector<ReportTable> multimodal_tables(const RunFolder& folder);
// TTFT (median) against a request's media pixels and against its image count, per lane, from
// the requests that carried media (media_timing_charts.cpp); none when fewer than two points.
std::vector<ChartSpec> media_timing_charts(const RunFolder& folder);
// A lane that refused media next to one that answered them, named (multimodal_tables.cpp).
std::vector<std::string> multimodal_caveats(const RunFolder& folder);
// SLO capacity: capacity, goodput and binding SLO per lane, and every probe (capacity_tables.cpp).
std::vector<ReportTable> capacity_tables(const RunFolder& folder);
// "Greedy A/A baseline under load": each lane's load mismatch rate with its interval and its
// batch-variant prompts; no rows when no regression has a load baseline.
ReportTable load_baseline_table(const RunFolder& folder);
// The determinism floor per lane and check, and each flip's first divergent token with its
// margin (determinism_tables.cpp); none when the run has no determinism experiment.
std::vector<ReportTable> determinism_tables(const RunFolder& folder);
// "Energy and cost" of one load experiment: per lane and phase the energy source, J per output
// token, output tokens per J, mean W, the window and $ per million output tokens, with intervals
// over trials (energy_tables.cpp); no rows when no lane measured energy or named a cost.
ReportTable energy_cost_table(const record::ExperimentSection& experiment,
                              const std::vector<std::string>& lanes);
// The effects a qualification looks for, at a glance (effect_charts.cpp): prefix cache passes
// and speculative decoding as grouped bars per lane, acceptance per draft position.
std::vector<ChartSpec> prefix_cache_charts(const record::ExperimentSection& experiment,
                                           const std::vector<std::string>& lanes);
std::vector<ChartSpec> speculative_charts(const record::ExperimentSection& experiment,
                                          const std::vector<std::string>& lanes);
// A sweep's tuning curves (summary.json "sweeps"): for each axis the objective's figure and each
// bounded figure against the swept value, the best value and the points out of bounds marked.
std::vector<ChartSpec> sweep_charts(const record::RunSummary& summary);
// Per-user decode rate (median) against total output tok/s for each level of a load experiment
// (throughput, trace, capacity): the frontier of all lanes' levels as a grey line (the first
// series), then one curve per lane with the frontier's points marked (pareto_chart.cpp).
ChartSpec pareto_chart(const record::ExperimentSection& experiment,
                       const std::vector<std::string>& lanes);
// SLO capacity: each set SLO's p99 figure against the probe load, one curve per lane with each
// probe marked met or missed, and the SLO as a grey line (capacity_chart.cpp).
std::vector<ChartSpec> capacity_charts(const record::ExperimentSection& experiment,
                                       const std::vector<std::string>& lanes);
// The charts of report_charts() that show an effect: prefix cache, speculative decoding and the
// context sweep (TTFT with needle retrieval marked); for the workbench's Effects view.
std::vector<ChartSpec> effect_charts(const RunFolder& folder);
// "Checkpoint verification": one row per record (lane, result, files, scan, headers, bytes,
// manifest digest).
ReportTable artifacts_table(const std::vector<ArtifactRecord>& records);
// Non-identical pairs of every review, with their texts; at most max_pairs.
std::vector<ReviewedPair> reviewed_pairs(const RunFolder& folder, std::size_t max_pairs,
                                         std::size_t* left_out);
std::vector<std::string> report_caveats(const RunFolder& folder);
// One caveat per lane pair whose differing pairs include batch-variant prompts (a lane's own
// greedy answer changed under load, the regression's load_baseline): it names them by id and the
// lanes they vary on, so their differences are not taken for the candidate configuration's.
std::vector<std::string> batch_variant_caveats(const RunFolder& folder);
// "x [lo, hi]": a phase's figure (summary.json key) with its bootstrap interval (the phase's
// "intervals"), in the figure's decimals; the figure alone when the phase has no interval for it.
// Over trials x is the interval's estimate, the mean of the per-trial figures.
// "n/a" without the phase.
std::string format_with_interval(const record::PhaseRecord* phase, const char* key, int decimals);
// The same for a latency in ms, shown in seconds as format_seconds() shows it.
std::string format_seconds_with_interval(const record::PhaseRecord* phase, const char* key);
// "Lane comparisons": one row per entry of an experiment's "comparisons" (candidate/baseline,
// level, figure, ratio [interval], verdict with its confidence level); no rows when it has none.
ReportTable lane_comparisons_table(const record::ExperimentSection& experiment);
// "Performance gates": one row per judged gate (lanes, level, figure, ratio [interval], rule,
// outcome with the trials an inconclusive one needs); no rows when the experiment has none.
ReportTable performance_gates_table(const record::ExperimentSection& experiment);

// Number formatting shared by every writer and the tests: fixed decimals, "n/a" when negative
// or not a number.
std::string format_number(double value, int decimals);
// Milliseconds shown as seconds with enough decimals to stay readable (0.004, 1.69, 125.1);
// "n/a" when negative.
std::string format_seconds(double ms);
// The GUI palette colour of the i-th lane in plan order, "#RRGGBB".
std::string lane_color(std::size_t lane_index);

}  // namespace lb::report
