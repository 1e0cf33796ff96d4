// The effects a qualification looks for, drawn so they read at a glance: the prefix cache's
// cold, warm and control passes and speculative decoding's gain per concurrency level as grouped
// bars per lane, and the acceptance of each draft position.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/record/phase_name.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using record::ExperimentSection;

ChartSpec bars(const std::vector<std::string>& lanes, ChartSpec spec) {
  for (size_t i = 0; i < lanes.size(); ++i)
    spec.series.push_back(ChartSeries{lanes[i], lane_color(i), {}, {}});
  return spec;
}

std::string percent(double share) {
  return std::to_string(static_cast<int>(share * 100 + 0.5)) + " %";
}

// Each lane's prefix-cache record, in `lanes` order; nullopt where a lane has none.
std::vector<std::optional<record::PrefixCacheRecord>> prefix_records(
    const ExperimentSection& e, const std::vector<std::string>& lanes) {
  std::vector<std::optional<record::PrefixCacheRecord>> out;
  for (const std::string& lane : lanes) {
    const record::LaneRecord* l = e.lane(lane);
    out.push_back(l ? l->prefix_cache() : std::nullopt);
  }
  return out;
}

// "warm pass cached: bf16 100 %, fp8 100 % (server)": each lane's reuse evidence, short enough
// for one line under the legend.
std::string prefix_evidence(const std::vector<std::optional<record::PrefixCacheRecord>>& records,
                            const std::vector<std::string>& lanes) {
  std::string shares, provenance;
  for (size_t i = 0; i < lanes.size(); ++i) {
    if (!records[i]) continue;
    const record::PrefixPassRecord* warm = records[i]->pass("warm");
    const double cached = warm ? warm->cached_tokens : NAN;
    const double prompt = warm ? warm->prompt_tokens : NAN;
    std::string part = lanes[i] + " ";
    if (cached >= 0 && prompt > 0) {
      part += percent(cached / prompt);
      const std::string& p = warm->cached_provenance;
      provenance = provenance.empty() || provenance == p ? p : "mixed";
    } else {
      part += records[i]->reuse_detected == true ? "reused" : "no evidence";
    }
    shares += (shares.empty() ? "" : ", ") + part;
  }
  if (shares.empty()) return {};
  return "warm pass, share of prompt tokens cached: " + shares +
         (provenance.empty() ? "" : " (" + provenance + ")");
}

}  // namespace

std::vector<ChartSpec> prefix_cache_charts(const ExperimentSection& e,
                                           const std::vector<std::string>& lanes) {
  const auto records = prefix_records(e, lanes);
  std::vector<std::string> passes;
  for (const char* pass : {"cold", "warm", "control"})
    if (std::any_of(records.begin(), records.end(),
                    [&](const auto& r) { return r && r->pass(pass); }))
      passes.push_back(pass);
  ChartSpec ttft = bars(lanes, {"prefix_cache_ttft",
                                "Prefix cache: TTFT per pass",
                                "pass",
                                "TTFT median (s)",
                                false,
                                {},
                                passes,
                                prefix_evidence(records, lanes)});
  ChartSpec output = bars(lanes, {"prefix_cache_output",
                                  "Prefix cache: aggregate output per pass",
                                  "pass",
                                  "output (tok/s)",
                                  false,
                                  {},
                                  passes,
                                  "output tokens per second of each burst"});
  for (size_t i = 0; i < lanes.size(); ++i)
    for (size_t p = 0; p < passes.size(); ++p) {
      const record::PrefixPassRecord* pass = records[i] ? records[i]->pass(passes[p]) : nullptr;
      if (!pass) continue;
      if (const double t = pass->median_ttft_ms; t >= 0)
        ttft.series[i].points.emplace_back(static_cast<double>(p), t / 1000);
      if (const double o = pass->output_tok_s; o >= 0)
        output.series[i].points.emplace_back(static_cast<double>(p), o);
    }
  return {ttft, output};
}

std::vector<ChartSpec> speculative_charts(const ExperimentSection& e,
                                          const std::vector<std::string>& lanes) {
  std::vector<std::vector<record::SpeculativeLevelRecord>> records;
  std::vector<std::string> levels;  // every lane's levels, by concurrency
  for (const std::string& lane : lanes) {
    const record::LaneRecord* l = e.lane(lane);
    records.push_back(l ? l->speculative() : std::vector<record::SpeculativeLevelRecord>{});
    for (const record::SpeculativeLevelRecord& level : records.back())
      if (std::find(levels.begin(), levels.end(), level.level) == levels.end())
        levels.push_back(level.level);
  }
  std::stable_sort(levels.begin(), levels.end(), [](const auto& a, const auto& b) {
    return record::concurrency_of(a) < record::concurrency_of(b);
  });
  ChartSpec decode = bars(lanes, {"spec_decode_vs_concurrency",
                                  "Speculative decoding: decode rate per level",
                                  "concurrency",
                                  "decode p50 (tok/s)",
                                  false,
                                  {},
                                  levels,
                                  "each lane's median decode rate at each concurrency level"});
  ChartSpec events = bars(lanes, {"spec_tokens_per_event",
                                  "Speculative decoding: tokens per event",
                                  "concurrency",
                                  "tokens per streamed event (mean)",
                                  false,
                                  {},
                                  levels,
                                  "1.0 = one token per event, as without speculation"});
  auto level_of = [&](size_t lane,
                      const std::string& name) -> const record::SpeculativeLevelRecord* {
    for (const record::SpeculativeLevelRecord& level : records[lane])
      if (level.level == name) return &level;
    return nullptr;
  };
  size_t positions = 0;
  for (size_t i = 0; i < lanes.size(); ++i)
    for (const record::SpeculativeLevelRecord& level : records[i])
      positions = std::max(positions, level.acceptance_per_position().size());
  std::vector<std::string> position_names;
  for (size_t k = 1; k <= positions; ++k) position_names.push_back("draft " + std::to_string(k));
  const std::string first = levels.empty() ? std::string() : levels.front();
  ChartSpec acceptance =
      bars(lanes, {"spec_acceptance_per_position",
                   "Speculative decoding: acceptance per draft position",
                   "draft position",
                   "accepted (%)",
                   false,
                   {},
                   position_names,
                   "at " + first + "; from the server's speculative decoding counters"});
  for (size_t i = 0; i < lanes.size(); ++i) {
    for (size_t l = 0; l < levels.size(); ++l) {
      const record::SpeculativeLevelRecord* f = level_of(i, levels[l]);
      if (!f) continue;
      if (const double d = f->decode_tok_s_median(); d >= 0) {
        decode.series[i].points.emplace_back(static_cast<double>(l), d);
        decode.series[i].intervals.push_back(
            phase_interval(e.phase(lanes[i], levels[l]), "median_decode_tok_s"));
      }
      if (const double t = f->tokens_per_event_mean(); t >= 0)
        events.series[i].points.emplace_back(static_cast<double>(l), t);
    }
    if (const record::SpeculativeLevelRecord* f = level_of(i, first))
      for (size_t k = 0; k < f->acceptance_per_position().size(); ++k)
        if (const double share = f->acceptance_per_position()[k]; std::isfinite(share))
          acceptance.series[i].points.emplace_back(static_cast<double>(k), 100 * share);
  }
  return {decode, events, acceptance};
}

namespace {

// "p99_ttft_ms" -> "p99_ttft (ms)", "output_throughput" -> "output_throughput (tok/s)".
std::string figure_title(const std::string& figure) {
  if (figure.size() > 3 && figure.compare(figure.size() - 3, 3, "_ms") == 0)
    return figure.substr(0, figure.size() - 3) + " (ms)";
  if (figure == "output_throughput") return "output throughput (tok/s)";
  if (figure == "request_throughput") return "request throughput (req/s)";
  if (figure.find("tok_s") != std::string::npos) return figure + " (tok/s)";
  return figure;
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// One chart of FIGURE against the swept value: the best point a filled dot, a point that broke a
// bound a cross.
ChartSpec sweep_chart(const record::SweepAxisRecord& axis, const std::string& figure,
                      size_t index) {
  ChartSpec chart{"sweep_" + std::to_string(index + 1) + "_" + figure,
                  "Sweep of " + axis.lane + ": " + figure_title(figure) + " vs " + axis.parameter,
                  axis.parameter,
                  figure_title(figure),
                  false,
                  {},
                  {},
                  {}};
  ChartSeries series{axis.lane, lane_color(0), {}, {}};
  bool powers_of_two = true;
  const double best = axis.best_value;
  for (const record::SweepPointRecord& point : axis.points) {
    const double x = point.value;
    const auto y = point.figures.find(figure);
    if (std::isnan(x) || y == point.figures.end()) continue;
    powers_of_two = powers_of_two && x >= 1 && std::exp2(std::round(std::log2(x))) == x;
    series.points.emplace_back(x, y->second);
    series.marks.push_back(x == best                 ? PointMark::Pass
                           : point.eligible == false ? PointMark::Fail
                                                     : PointMark::None);
  }
  std::vector<size_t> order(series.points.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return series.points[a].first < series.points[b].first; });
  ChartSeries sorted{series.name, series.color, {}, {}};
  for (size_t i : order) {
    sorted.points.push_back(series.points[i]);
    sorted.marks.push_back(series.marks[i]);
  }
  chart.log_x = powers_of_two && sorted.points.size() > 2;
  chart.series.push_back(std::move(sorted));
  const auto bound = axis.subject_to.find(figure);
  const std::string bound_text = bound == axis.subject_to.end()
                                     ? std::string()
                                     : "; bound " + figure + " <= " + number_text(bound->second);
  chart.note = std::isnan(best) ? "no point met every bound; cross: a point that broke a bound"
                                : "filled dot: the best value (" + axis.parameter + " = " +
                                      number_text(best) + "); cross: broke a bound" + bound_text;
  return chart;
}

}  // namespace

std::vector<ChartSpec> sweep_charts(const record::RunSummary& summary) {
  std::vector<ChartSpec> charts;
  const std::vector<record::SweepAxisRecord> sweeps = summary.sweeps();
  for (size_t i = 0; i < sweeps.size(); ++i) {
    const record::SweepAxisRecord& axis = sweeps[i];
    std::vector<std::string> figures{axis.objective_figure()};
    for (const auto& [figure, bound] : axis.subject_to)
      if (std::find(figures.begin(), figures.end(), figure) == figures.end())
        figures.push_back(figure);
    for (const std::string& figure : figures) charts.push_back(sweep_chart(axis, figure, i));
  }
  return charts;
}

}  // namespace lb::report
