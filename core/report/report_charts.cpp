// The report's charts as plain data (ChartSpec), each from whatever experiments
// the run has.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/record/phase_name.h"
#include "core/record/run_summary.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

// Names the requests of experiments of KIND carry, from the plan (a killed run may have no
// summary); an unnamed experiment goes by its kind.
std::set<std::string> experiment_names(const RunFolder& folder, record::ExperimentKind kind) {
  std::set<std::string> names;
  for (const record::PlannedExperiment& e : folder.plan_headline.experiments)
    if (record::experiment_kind_from(e.kind) == kind) names.insert(e.name);
  if (names.empty()) names.insert(record::to_string(kind));
  return names;
}

// One series per lane, in plan order, coloured like the GUI.
ChartSpec chart_with_lanes(const std::vector<std::string>& lanes, ChartSpec spec) {
  for (size_t i = 0; i < lanes.size(); ++i)
    spec.series.push_back(ChartSeries{lanes[i], lane_color(i), {}, {}});
  return spec;
}

void drop_empty(ChartSpec& spec) {
  std::erase_if(spec.series, [](const ChartSeries& s) { return s.points.empty(); });
  // A series without a single interval draws no bars: keep the SVG as it was.
  for (auto& s : spec.series)
    if (std::none_of(s.intervals.begin(), s.intervals.end(),
                     [](const auto& i) { return !std::isnan(i.first); }))
      s.intervals.clear();
}

// The TTFT curve carries each size's needle retrieval as a mark where the sweep had a needle.
PointMark retrieval_mark(const record::ContextSizeRecord& row) {
  if (!row.retrieval_pass) return PointMark::None;
  return *row.retrieval_pass ? PointMark::Pass : PointMark::Fail;
}

// A lane's phases, none when the experiment has no such lane.
const std::vector<record::PhaseRecord>& phases_of(const record::ExperimentSection& e,
                                                  const std::string& lane) {
  static const std::vector<record::PhaseRecord> kNone;
  const record::LaneRecord* l = e.lane(lane);
  return l ? l->phases : kNone;
}

std::vector<ChartSpec> context_charts(const record::ExperimentSection& e,
                                      const std::vector<std::string>& lanes) {
  ChartSpec ttft = chart_with_lanes(
      lanes, {"ttft_vs_context", "TTFT vs context length", "prompt tokens", "TTFT (s)", true, {}});
  bool any_needle = false;
  ChartSpec decode = chart_with_lanes(lanes, {"decode_vs_context",
                                              "Decode rate vs context length",
                                              "prompt tokens",
                                              "decode (tok/s)",
                                              true,
                                              {}});
  for (size_t i = 0; i < lanes.size(); ++i) {
    const record::LaneRecord* lane = e.lane(lanes[i]);
    if (!lane) continue;
    for (const record::ContextSizeRecord& row : lane->context_sweep()) {
      if (!row.measured()) continue;
      const double x = row.prompt_tokens > 0 ? row.prompt_tokens : row.target_tokens;
      if (const double t = row.ttft_ms; t >= 0) {
        ttft.series[i].points.emplace_back(x, t / 1000);
        ttft.series[i].marks.push_back(retrieval_mark(row));
        any_needle = any_needle || ttft.series[i].marks.back() != PointMark::None;
      }
      if (const double d = row.decode_tok_s; d >= 0) decode.series[i].points.emplace_back(x, d);
    }
  }
  if (any_needle)
    ttft.note = "filled dot: the needle was retrieved at that length; cross: it was not";
  else
    for (auto& series : ttft.series) series.marks.clear();
  return {ttft, decode};
}

ChartSpec concurrency_chart(const record::ExperimentSection& e,
                            const std::vector<std::string>& lanes) {
  ChartSpec spec = chart_with_lanes(lanes, {"output_vs_concurrency",
                                            "Aggregate output vs concurrency",
                                            "concurrent requests",
                                            "output (tok/s)",
                                            false,
                                            {}});
  for (size_t i = 0; i < lanes.size(); ++i)
    for (const record::PhaseRecord& p : phases_of(e, lanes[i])) {
      const long long c = record::concurrency_of(p.name);
      // Over trials the figure is the interval's estimate, so the bar sits around it.
      const double tok_s = phase_figure(&p, "output_throughput");
      if (c <= 0 || !(tok_s >= 0)) continue;
      spec.series[i].points.emplace_back(static_cast<double>(c), tok_s);
      spec.series[i].intervals.push_back(phase_interval(&p, "output_throughput"));
    }
  return spec;
}

// TTFT p50 at each closed-loop level, with its bootstrap interval (over requests, or over
// trials) as error bars.
ChartSpec ttft_concurrency_chart(const record::ExperimentSection& e,
                                 const std::vector<std::string>& lanes) {
  ChartSpec spec = chart_with_lanes(lanes, {"ttft_vs_concurrency",
                                            "TTFT vs concurrency",
                                            "concurrent requests",
                                            "TTFT p50 (s)",
                                            false,
                                            {}});
  spec.note = "bars: 95 % bootstrap interval of the median";
  for (size_t i = 0; i < lanes.size(); ++i)
    for (const record::PhaseRecord& p : phases_of(e, lanes[i])) {
      const long long c = record::concurrency_of(p.name);
      const double ms = phase_figure(&p, "median_ttft_ms");
      if (c <= 0 || !(ms >= 0)) continue;
      spec.series[i].points.emplace_back(static_cast<double>(c), ms / 1000);
      spec.series[i].intervals.push_back(phase_interval(&p, "median_ttft_ms", 1.0 / 1000));
    }
  return spec;
}

// Share of inter-token gaps at or below each value: one curve per lane, over
// the throughput experiments' non-warm-up requests.
ChartSpec itl_chart(const RunFolder& folder, const std::vector<std::string>& lanes) {
  ChartSpec spec = chart_with_lanes(lanes, {"itl_distribution",
                                            "Inter-token latency distribution",
                                            "ITL (ms)",
                                            "share of gaps at or below (%)",
                                            false,
                                            {}});
  const std::set<std::string> throughput =
      experiment_names(folder, record::ExperimentKind::Throughput);
  constexpr size_t kSteps = 50;  // enough for a smooth curve, small enough for a light SVG
  // Counted as requests.jsonl was read (RequestDigest): a long run has tens of millions of gaps.
  for (size_t i = 0; i < lanes.size(); ++i) {
    const GapHistogram gaps = folder.digest.gaps(lanes[i], throughput);
    const int64_t n = gaps.count();
    if (n == 0) continue;
    for (int64_t s = 0; s <= static_cast<int64_t>(kSteps); ++s) {
      const int64_t k = std::min(n - 1, s * (n - 1) / static_cast<int64_t>(kSteps));
      spec.series[i].points.emplace_back(
          gaps.at_rank(k), 100.0 * static_cast<double>(k + 1) / static_cast<double>(n));
    }
  }
  return spec;
}

// Every chart the builder makes of each experiment of KIND, appended to CHARTS.
template <typename Builder>
void add_charts_of(const RunFolder& folder, record::ExperimentKind kind, Builder build,
                   std::vector<ChartSpec>& charts) {
  for (const record::ExperimentSection* e : folder.record.of_kind(kind))
    for (auto& c : build(*e, folder.lane_ids())) charts.push_back(std::move(c));
}

// The Pareto chart of every load experiment with two levels or more (one point is no curve).
void add_pareto_charts(const RunFolder& folder, std::vector<ChartSpec>& charts) {
  for (record::ExperimentKind kind :
       {record::ExperimentKind::Throughput, record::ExperimentKind::Trace,
        record::ExperimentKind::Capacity})
    for (const record::ExperimentSection* e : folder.record.of_kind(kind)) {
      ChartSpec spec = pareto_chart(*e, folder.lane_ids());
      size_t points = 0;
      for (const auto& s : spec.series)
        if (s.name != "Pareto frontier") points += s.points.size();
      if (points >= 2) charts.push_back(std::move(spec));
    }
}

void drop_empty_charts(std::vector<ChartSpec>& charts) {
  for (auto& c : charts) drop_empty(c);
  std::erase_if(charts, [](const ChartSpec& c) { return c.series.empty(); });
}

}  // namespace

std::vector<ChartSpec> report_charts(const RunFolder& folder) {
  const auto lanes = folder.lane_ids();
  std::vector<ChartSpec> charts;
  add_charts_of(folder, record::ExperimentKind::ContextSweep, context_charts, charts);
  for (const record::ExperimentSection* e :
       folder.record.of_kind(record::ExperimentKind::Throughput)) {
    charts.push_back(concurrency_chart(*e, lanes));
    charts.push_back(ttft_concurrency_chart(*e, lanes));
  }
  add_pareto_charts(folder, charts);
  for (const record::ExperimentSection* e : folder.record.of_kind(record::ExperimentKind::Capacity))
    for (auto& c : capacity_charts(*e, lanes)) charts.push_back(std::move(c));
  charts.push_back(itl_chart(folder, lanes));
  add_charts_of(folder, record::ExperimentKind::PrefixCache, prefix_cache_charts, charts);
  add_charts_of(folder, record::ExperimentKind::Speculative, speculative_charts, charts);
  for (auto& c : sweep_charts(folder.record)) charts.push_back(std::move(c));
  for (auto& c : media_timing_charts(folder)) charts.push_back(std::move(c));
  drop_empty_charts(charts);
  // Two experiments of one kind would give two charts of one id.
  std::map<std::string, int> seen;
  for (auto& c : charts)
    if (const int n = seen[c.id]++; n > 0) c.id += "_" + std::to_string(n + 1);
  return charts;
}

std::vector<ChartSpec> effect_charts(const RunFolder& folder) {
  std::vector<ChartSpec> charts;
  add_charts_of(folder, record::ExperimentKind::PrefixCache, prefix_cache_charts, charts);
  add_charts_of(folder, record::ExperimentKind::Speculative, speculative_charts, charts);
  add_charts_of(folder, record::ExperimentKind::ContextSweep, context_charts, charts);
  add_pareto_charts(folder, charts);
  for (auto& c : sweep_charts(folder.record)) charts.push_back(std::move(c));
  for (auto& c : media_timing_charts(folder)) charts.push_back(std::move(c));
  drop_empty_charts(charts);
  return charts;
}

}  // namespace lb::report
