// The SLO capacity charts (docs/capacity.md): for each SLO the experiment set, its p99 figure
// against the probe load, one curve per lane through its probes sorted by load, each probe marked
// met (large dot) or missed (cross), and the SLO itself as a grey line across the loads probed.
#include <algorithm>
#include <tuple>

#include "core/report/json_access.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

struct SloFigure {
  const char* key;    // in "slo" and in each probe
  const char* id;     // chart id
  const char* label;  // "TTFT p99"
};

constexpr SloFigure kFigures[] = {{"ttft_p99_ms", "capacity_ttft_p99", "TTFT p99"},
                                  {"tpot_p99_ms", "capacity_tpot_p99", "TPOT p99"}};

// The lane's probes as (load, figure, passed), sorted by load; probes without the figure left
// out.
std::vector<std::tuple<double, double, bool>> probe_points(const json& capacity, const char* key) {
  std::vector<std::tuple<double, double, bool>> out;
  const json& probes = json_at(capacity, {"probes"});
  if (!probes.is_array()) return out;
  for (const json& p : probes) {
    const double load = number_at(p, {"load"});
    const double figure = number_at(p, {key});
    if (load < 0 || figure < 0) continue;
    out.emplace_back(load, figure, json_at(p, {"pass"}) == true);
  }
  std::sort(out.begin(), out.end());
  return out;
}

ChartSpec figure_chart(const json& e, const std::vector<std::string>& lanes, const SloFigure& f,
                       double slo_ms) {
  std::string unit = "concurrent requests";
  ChartSpec spec{f.id, std::string("SLO capacity: ") + f.label + " by load", "", "", false, {}};
  spec.series.push_back(
      ChartSeries{"SLO (p99 <= " + format_number(slo_ms, 1) + " ms)", "#BBBBBB", {}, {}, {}});
  double lo = -1, hi = -1;
  for (size_t i = 0; i < lanes.size(); ++i) {
    const json& c = json_at(e, {"lanes", lanes[i].c_str(), "capacity"});
    if (!c.is_object()) continue;
    if (const std::string u = string_at(c, {"unit"}); !u.empty()) unit = u;
    ChartSeries series{lanes[i], lane_color(i), {}, {}, {}};
    for (const auto& [load, figure, passed] : probe_points(c, f.key)) {
      series.points.emplace_back(load, figure);
      series.marks.push_back(passed ? PointMark::Pass : PointMark::Fail);
      lo = lo < 0 ? load : std::min(lo, load);
      hi = std::max(hi, load);
    }
    if (!series.points.empty()) spec.series.push_back(std::move(series));
  }
  if (hi < 0) return {};
  spec.series.front().points = {{lo, slo_ms}, {hi, slo_ms}};
  spec.x_title = "probe load (" + unit + ")";
  spec.y_title = std::string(f.label) + " (ms)";
  spec.note = "grey: the SLO; large dots: probes that met every SLO; crosses: probes that missed";
  return spec;
}

}  // namespace

std::vector<ChartSpec> capacity_charts(const json& experiment,
                                       const std::vector<std::string>& lanes) {
  std::vector<ChartSpec> charts;
  for (const SloFigure& f : kFigures) {
    const double slo_ms = number_at(experiment, {"slo", f.key});
    if (slo_ms <= 0) continue;
    ChartSpec spec = figure_chart(experiment, lanes, f, slo_ms);
    if (!spec.series.empty()) charts.push_back(std::move(spec));
  }
  return charts;
}

}  // namespace lb::report
