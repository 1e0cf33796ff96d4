// The Pareto chart of a load experiment: per-user decode rate against total output, one curve per
// lane (its levels in the order they ran), and the frontier of all lanes' points.
#include "core/metrics/pareto.h"
#include "core/record/run_summary.h"
#include "core/report/report_model.h"

namespace lb::report {

ChartSpec pareto_chart(const record::ExperimentSection& experiment,
                       const std::vector<std::string>& lanes) {
  ChartSpec spec{"pareto_frontier",
                 "Per-user decode rate vs total output (Pareto frontier)",
                 "total output (tok/s)",
                 "per-user decode, median (tok/s)",
                 false,
                 {}};
  // The frontier comes first, so the lanes' curves are drawn over it where they coincide.
  spec.series.push_back(ChartSeries{"Pareto frontier", "#BBBBBB", {}, {}});
  std::vector<metrics::ParetoPoint> all;
  std::vector<std::pair<size_t, size_t>> where;  // (series, point) of each entry of `all`
  for (size_t i = 0; i < lanes.size(); ++i) {
    ChartSeries series{lanes[i], lane_color(i), {}, {}};
    const record::LaneRecord* lane = experiment.lane(lanes[i]);
    for (const record::PhaseRecord& p : lane ? lane->phases : std::vector<record::PhaseRecord>{}) {
      const double total = p.figures.output_throughput;
      const double per_user = p.figures.decode_tok_s.median;
      if (!(total >= 0) || !(per_user >= 0)) continue;
      where.emplace_back(spec.series.size(), series.points.size());
      series.points.emplace_back(total, per_user);
      series.marks.push_back(PointMark::None);
      all.push_back({total, per_user});
    }
    if (!series.points.empty()) spec.series.push_back(std::move(series));
  }
  if (all.empty()) return {};
  const std::vector<bool> on = metrics::pareto_frontier(all);
  for (size_t k = 0; k < all.size(); ++k)
    if (on[k]) spec.series[where[k].first].marks[where[k].second] = PointMark::Pass;
  for (const auto& p : metrics::frontier_points(all))
    spec.series.front().points.emplace_back(p.total_tok_s, p.per_user_tok_s);
  spec.note = "grey: the Pareto frontier, the levels (large dots) no other beats on both axes";
  return spec;
}

}  // namespace lb::report
