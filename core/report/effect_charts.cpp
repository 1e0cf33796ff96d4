// The effects a qualification looks for, drawn so they read at a glance: the prefix cache's
// cold, warm and control passes and speculative decoding's gain per concurrency level as grouped
// bars per lane, and the acceptance of each draft position.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/report/json_access.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

ChartSpec bars(const std::vector<std::string>& lanes, ChartSpec spec) {
  for (size_t i = 0; i < lanes.size(); ++i)
    spec.series.push_back(ChartSeries{lanes[i], lane_color(i), {}, {}});
  return spec;
}

std::string percent(double share) {
  return std::to_string(static_cast<int>(share * 100 + 0.5)) + " %";
}

// "warm pass cached: bf16 100 %, fp8 100 % (server)": each lane's reuse evidence, short enough
// for one line under the legend.
std::string prefix_evidence(const json& e, const std::vector<std::string>& lanes) {
  std::string shares, provenance;
  for (const std::string& lane : lanes) {
    const json& pc = json_at(e, {"lanes", lane.c_str(), "prefix_cache"});
    if (!pc.is_object()) continue;
    const json& warm = json_at(pc, {"passes", "warm"});
    const double cached = number_at(warm, {"cached_tokens", "value"});
    const double prompt = number_at(warm, {"prompt_tokens"});
    std::string part = lane + " ";
    if (cached >= 0 && prompt > 0) {
      part += percent(cached / prompt);
      const std::string p = string_at(warm, {"cached_tokens", "provenance"});
      provenance = provenance.empty() || provenance == p ? p : "mixed";
    } else {
      part += json_at(pc, {"evidence", "reuse_detected"}) == true ? "reused" : "no evidence";
    }
    shares += (shares.empty() ? "" : ", ") + part;
  }
  if (shares.empty()) return {};
  return "warm pass, share of prompt tokens cached: " + shares +
         (provenance.empty() ? "" : " (" + provenance + ")");
}

}  // namespace

std::vector<ChartSpec> prefix_cache_charts(const json& e, const std::vector<std::string>& lanes) {
  static const std::vector<std::string> kPasses = {"cold", "warm", "control"};
  std::vector<std::string> passes;
  for (const std::string& pass : kPasses)
    for (const std::string& lane : lanes)
      if (json_at(e, {"lanes", lane.c_str(), "prefix_cache", "passes", pass.c_str()}).is_object()) {
        passes.push_back(pass);
        break;
      }
  ChartSpec ttft = bars(lanes, {"prefix_cache_ttft",
                                "Prefix cache: TTFT per pass",
                                "pass",
                                "TTFT median (s)",
                                false,
                                {},
                                passes,
                                prefix_evidence(e, lanes)});
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
      const json& pass =
          json_at(e, {"lanes", lanes[i].c_str(), "prefix_cache", "passes", passes[p].c_str()});
      if (const double t = number_at(pass, {"median_ttft_ms"}); t >= 0)
        ttft.series[i].points.emplace_back(static_cast<double>(p), t / 1000);
      if (const double o = number_at(pass, {"output_tok_s"}); o >= 0)
        output.series[i].points.emplace_back(static_cast<double>(p), o);
    }
  return {ttft, output};
}

std::vector<ChartSpec> speculative_charts(const json& e, const std::vector<std::string>& lanes) {
  std::vector<std::string> levels;  // every lane's levels, by concurrency
  for (const std::string& lane : lanes)
    for (const std::string& level :
         keys_by_concurrency(json_at(e, {"lanes", lane.c_str(), "speculative"})))
      if (std::find(levels.begin(), levels.end(), level) == levels.end()) levels.push_back(level);
  std::sort(levels.begin(), levels.end(),
            [](const auto& a, const auto& b) { return concurrency_of(a) < concurrency_of(b); });
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
  size_t positions = 0;
  for (const std::string& lane : lanes)
    for (const std::string& level : levels)
      positions = std::max(positions, json_at(e, {"lanes", lane.c_str(), "speculative",
                                                  level.c_str(), "acceptance", "per_position"})
                                          .size());
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
    const json& lane = json_at(e, {"lanes", lanes[i].c_str(), "speculative"});
    for (size_t l = 0; l < levels.size(); ++l) {
      const json& f = json_at(lane, {levels[l].c_str()});
      if (const double d = number_at(f, {"decode_tok_s", "median"}); d >= 0) {
        decode.series[i].points.emplace_back(static_cast<double>(l), d);
        decode.series[i].intervals.push_back(
            phase_interval(json_at(e, {"lanes", lanes[i].c_str(), "phases", levels[l].c_str()}),
                           "median_decode_tok_s"));
      }
      if (const double t = number_at(f, {"tokens_per_event", "mean"}); t >= 0)
        events.series[i].points.emplace_back(static_cast<double>(l), t);
    }
    const json& per_position = json_at(lane, {first.c_str(), "acceptance", "per_position"});
    for (size_t k = 0; k < per_position.size(); ++k)
      if (per_position[k].is_number())
        acceptance.series[i].points.emplace_back(static_cast<double>(k),
                                                 100 * per_position[k].get<double>());
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
ChartSpec sweep_chart(const json& axis, const std::string& figure, size_t index) {
  const std::string parameter = string_at(axis, {"parameter"});
  const std::string lane = string_at(axis, {"lane"});
  ChartSpec chart{"sweep_" + std::to_string(index + 1) + "_" + figure,
                  "Sweep of " + lane + ": " + figure_title(figure) + " vs " + parameter,
                  parameter,
                  figure_title(figure),
                  false,
                  {},
                  {},
                  {}};
  ChartSeries series{lane, lane_color(0), {}, {}};
  bool powers_of_two = true;
  const double best = number_at(axis, {"best", "value"}, std::nan(""));
  for (const json& point : json_at(axis, {"points"})) {
    const double x = number_at(point, {"value"}, std::nan(""));
    const double y = number_at(point, {"figures", figure.c_str()}, std::nan(""));
    if (std::isnan(x) || std::isnan(y)) continue;
    powers_of_two = powers_of_two && x >= 1 && std::exp2(std::round(std::log2(x))) == x;
    series.points.emplace_back(x, y);
    series.marks.push_back(x == best                               ? PointMark::Pass
                           : json_at(point, {"eligible"}) == false ? PointMark::Fail
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
  const std::string bound = [&] {
    const json& subject = json_at(axis, {"objective", "subject_to"});
    const auto it = subject.is_object() ? subject.find(figure) : subject.end();
    return subject.is_object() && it != subject.end() && it->is_number()
               ? "; bound " + figure + " <= " + number_text(it->get<double>())
               : std::string();
  }();
  chart.note = std::isnan(best) ? "no point met every bound; cross: a point that broke a bound"
                                : "filled dot: the best value (" + parameter + " = " +
                                      number_text(best) + "); cross: broke a bound" + bound;
  return chart;
}

}  // namespace

std::vector<ChartSpec> sweep_charts(const json& summary) {
  std::vector<ChartSpec> charts;
  const json& sweeps = json_at(summary, {"sweeps"});
  for (size_t i = 0; i < sweeps.size(); ++i) {
    const json& axis = sweeps[i];
    std::vector<std::string> figures;
    const std::string maximize = string_at(axis, {"objective", "maximize"});
    const std::string minimize = string_at(axis, {"objective", "minimize"});
    figures.push_back(!maximize.empty()   ? maximize
                      : !minimize.empty() ? minimize
                                          : "output_throughput");
    const json& subject = json_at(axis, {"objective", "subject_to"});
    if (subject.is_object())
      for (const auto& [figure, bound] : subject.items())
        if (std::find(figures.begin(), figures.end(), figure) == figures.end())
          figures.push_back(figure);
    for (const std::string& figure : figures) charts.push_back(sweep_chart(axis, figure, i));
  }
  return charts;
}

}  // namespace lb::report
