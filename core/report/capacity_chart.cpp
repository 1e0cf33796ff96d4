// The SLO capacity charts (docs/capacity.md): for each SLO the experiment set, its p99 figure
// against the probe load, one curve per lane through its probes sorted by load, each probe marked
// met (large dot) or missed (cross), and the SLO itself as a grey line across the loads probed.
#include <algorithm>
#include <tuple>

#include "core/record/run_summary.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

struct SloFigure {
  double record::CapacitySlo::*slo;
  double record::CapacityProbeRecord::*figure;
  const char* id;     // chart id
  const char* label;  // "TTFT p99"
};

constexpr SloFigure kFigures[] = {
    {&record::CapacitySlo::ttft_p99_ms, &record::CapacityProbeRecord::ttft_p99_ms,
     "capacity_ttft_p99", "TTFT p99"},
    {&record::CapacitySlo::tpot_p99_ms, &record::CapacityProbeRecord::tpot_p99_ms,
     "capacity_tpot_p99", "TPOT p99"}};

// The lane's probes as (load, figure, passed), sorted by load; probes without the figure left
// out.
std::vector<std::tuple<double, double, bool>> probe_points(const record::CapacityRecord& capacity,
                                                           const SloFigure& f) {
  std::vector<std::tuple<double, double, bool>> out;
  for (const record::CapacityProbeRecord& p : capacity.probes) {
    const double figure = p.*f.figure;
    if (!(p.load >= 0) || !(figure >= 0)) continue;  // NaN too
    out.emplace_back(p.load, figure, p.pass);
  }
  std::sort(out.begin(), out.end());
  return out;
}

ChartSpec figure_chart(const record::ExperimentSection& e, const std::vector<std::string>& lanes,
                       const SloFigure& f, double slo_ms) {
  std::string unit = "concurrent requests";
  ChartSpec spec{f.id, std::string("SLO capacity: ") + f.label + " by load", "", "", false, {}};
  spec.series.push_back(
      ChartSeries{"SLO (p99 <= " + format_number(slo_ms, 1) + " ms)", "#BBBBBB", {}, {}, {}});
  double lo = -1, hi = -1;
  for (size_t i = 0; i < lanes.size(); ++i) {
    const record::LaneRecord* lane = e.lane(lanes[i]);
    const std::optional<record::CapacityRecord> c = lane ? lane->capacity() : std::nullopt;
    if (!c) continue;
    if (!c->unit.empty()) unit = c->unit;
    ChartSeries series{lanes[i], lane_color(i), {}, {}, {}};
    for (const auto& [load, figure, passed] : probe_points(*c, f)) {
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

std::vector<ChartSpec> capacity_charts(const record::ExperimentSection& experiment,
                                       const std::vector<std::string>& lanes) {
  std::vector<ChartSpec> charts;
  const record::CapacitySlo slo = experiment.capacity_slo();
  for (const SloFigure& f : kFigures) {
    const double slo_ms = slo.*f.slo;
    if (!(slo_ms > 0)) continue;
    ChartSpec spec = figure_chart(experiment, lanes, f, slo_ms);
    if (!spec.series.empty()) charts.push_back(std::move(spec));
  }
  return charts;
}

}  // namespace lb::report
