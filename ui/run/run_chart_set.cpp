#include "ui/run/run_chart_set.h"

#include <QObject>
#include <algorithm>
#include <cmath>

#include "core/metrics/pareto.h"
#include "widgets/chart/chart_panel.h"

namespace lb::ui {

using widgets::ChartPanel;

namespace {

// The catalog's charts this set makes itself; the traffic kinds' come from TrafficCharts.
constexpr RunChart kOwnCharts[] = {
    RunChart::OutputRate,     RunChart::TtftPerRequest,      RunChart::Itl,
    RunChart::TokensPerEvent, RunChart::DecodeVsContext,     RunChart::TtftVsContext,
    RunChart::TtftPerPass,    RunChart::DecodeVsConcurrency, RunChart::OutputVsConcurrency,
    RunChart::Pareto,
};

}  // namespace

RunChartSet::RunChartSet(const std::shared_ptr<widgets::LanePalette>& palette,
                         const QString& empty_text, QWidget* parent)
    : traffic_(palette, empty_text, parent) {
  for (RunChart chart : kOwnCharts)
    panels_[chart] = make_run_chart(chart, palette, empty_text, parent);
  panels_[RunChart::TraceLateness] = traffic_.lateness();
  panels_[RunChart::TtftByTurn] = traffic_.ttft_by_turn();
  panels_[RunChart::CapacityProbes] = traffic_.capacity_probes();
  panels_[RunChart::CapacityTtft] = traffic_.capacity_ttft();
  panels_[RunChart::CapacityTpot] = traffic_.capacity_tpot();
  ttft_title_ = panel(RunChart::TtftPerRequest)->title();
  output_rate_title_ = panel(RunChart::OutputRate)->title();
}

ChartPanel* RunChartSet::panel(RunChart chart) const { return panels_.at(chart); }

std::vector<ChartPanel*> RunChartSet::panels() const {
  std::vector<ChartPanel*> out;
  for (const auto& [chart, panel] : panels_) out.push_back(panel);
  return out;
}

std::vector<RunChart> RunChartSet::charts_of(std::optional<record::ExperimentKind> kind) {
  using K = record::ExperimentKind;
  using C = RunChart;
  if (kind) switch (*kind) {
      case K::ContextSweep:
        return {C::DecodeVsContext, C::TtftVsContext, C::OutputRate, C::TtftPerRequest};
      case K::PrefixCache:
        return {C::TtftPerPass, C::OutputRate, C::TtftPerRequest, C::Itl};
      case K::Speculative:
        return {C::DecodeVsConcurrency, C::TokensPerEvent, C::Itl, C::OutputRate};
      case K::Throughput:
        return {C::OutputVsConcurrency, C::DecodeVsConcurrency, C::Pareto,
                C::OutputRate,          C::TtftPerRequest,      C::Itl};
      case K::Trace:
        return {C::TraceLateness, C::OutputRate, C::TtftPerRequest, C::Pareto};
      case K::Sessions:
        return {C::TtftByTurn, C::TtftPerRequest, C::OutputRate, C::Itl};
      case K::Capacity:
        return {C::CapacityProbes, C::CapacityTtft, C::CapacityTpot, C::Pareto};
      case K::Gates:
        return {};
      case K::Regression:
      case K::SampledRegression:
      case K::Determinism:
        break;
    }
  return {C::OutputRate, C::TtftPerRequest, C::Itl, C::TokensPerEvent};
}

QString RunChartSet::frontier_name() { return QObject::tr("Pareto frontier"); }

void RunChartSet::clear() {
  for (ChartPanel* p : panels()) p->clear();
  panel(RunChart::TtftPerRequest)->set_title(ttft_title_);
  panel(RunChart::OutputRate)->set_title(output_rate_title_);
}

void RunChartSet::name_time_axes(bool lane_time) {
  ui::name_time_axes(panel(RunChart::OutputRate), panel(RunChart::TtftPerRequest), lane_time);
  traffic_.name_time_axis(lane_time);
}

void RunChartSet::draw_output_rate(const QString& lane, std::vector<QPointF> points,
                                   double start_s) {
  if (!points.empty())
    panel(RunChart::OutputRate)->set_series(lane, since_lane_start(std::move(points), start_s));
}

void RunChartSet::draw_lane(const QString& lane, LaneSeries s, double start_s) {
  draw_output_rate(lane, std::move(s.output_tok_s), start_s);
  if (!s.ttft_ms.empty())
    panel(RunChart::TtftPerRequest)
        ->set_series(lane, since_lane_start(std::move(s.ttft_ms), start_s));
  if (!s.itl_sample_ms.empty()) panel(RunChart::Itl)->set_samples(lane, std::move(s.itl_sample_ms));
  if (!s.tokens_per_event_sample.empty())
    panel(RunChart::TokensPerEvent)->set_samples(lane, std::move(s.tokens_per_event_sample));
  if (!s.ttft_vs_context.empty() || !s.decode_vs_context.empty()) {
    panel(RunChart::DecodeVsContext)->set_series(lane, std::move(s.decode_vs_context));
    panel(RunChart::TtftVsContext)->set_series(lane, std::move(s.ttft_vs_context));
  }
  if (!s.ttft_per_pass.empty())
    panel(RunChart::TtftPerPass)->set_series(lane, std::move(s.ttft_per_pass));
  if (!s.lateness_ms.empty())
    traffic_.set_lateness(lane, since_lane_start(std::move(s.lateness_ms), start_s));
  if (!s.ttft_by_turn.empty()) traffic_.set_ttft_by_turn(lane, std::move(s.ttft_by_turn));
}

void RunChartSet::draw_phases(const QString& lane, const std::vector<PhasePoint>& phases) {
  std::vector<QPointF> decode, output;
  std::vector<widgets::PointInterval> intervals;
  for (const PhasePoint& p : phases) {
    if (std::isnan(p.x)) continue;
    if (std::isfinite(p.decode_p50_tok_s)) decode.emplace_back(p.x, p.decode_p50_tok_s);
    if (std::isfinite(p.output_tok_s)) output.emplace_back(p.x, p.output_tok_s);
    if (std::isfinite(p.decode_lo) && std::isfinite(p.decode_hi))
      intervals.push_back({p.x, p.decode_lo, p.decode_hi});
  }
  const auto by_x = [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); };
  std::stable_sort(decode.begin(), decode.end(), by_x);
  std::stable_sort(output.begin(), output.end(), by_x);
  std::sort(intervals.begin(), intervals.end(),
            [](const auto& a, const auto& b) { return a.x < b.x; });
  if (!decode.empty()) {
    panel(RunChart::DecodeVsConcurrency)->set_series(lane, std::move(decode));
    panel(RunChart::DecodeVsConcurrency)->set_intervals(lane, std::move(intervals));
  }
  if (!output.empty()) panel(RunChart::OutputVsConcurrency)->set_series(lane, std::move(output));
}

// Each lane's levels as (total output, per-user decode), and the frontier of every lane's levels,
// dashed: live, it moves while a level's requests finish.
void RunChartSet::draw_pareto(const LanePhases& lanes) {
  ChartPanel* pareto = panel(RunChart::Pareto);
  std::vector<metrics::ParetoPoint> all;
  for (const auto& [lane, phases] : lanes) {
    std::vector<QPointF> points;
    for (const PhasePoint& p : phases)
      if (std::isfinite(p.decode_p50_tok_s) && p.output_tok_s >= 0)
        points.emplace_back(p.output_tok_s, p.decode_p50_tok_s);
    std::stable_sort(points.begin(), points.end(),
                     [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    for (const QPointF& p : points) all.push_back({p.x(), p.y()});
    if (!points.empty()) pareto->set_series(lane, std::move(points));
  }
  std::vector<QPointF> frontier;
  for (const auto& p : metrics::frontier_points(all))
    frontier.emplace_back(p.total_tok_s, p.per_user_tok_s);
  if (!frontier.empty())
    pareto->set_reference_series(frontier_name(), std::move(frontier), frontier_name());
}

void RunChartSet::draw_capacity(const LaneProbes& probes) {
  if (!probes.empty()) traffic_.set_capacity(probes);
}

void RunChartSet::draw_steady_windows(const std::map<QString, std::vector<widgets::XSpan>>& by_lane,
                                      const std::map<QString, double>& start_s) {
  ChartPanel* output = panel(RunChart::OutputRate);
  bool any = false;
  for (const auto& [lane, windows] : by_lane) {
    if (windows.empty()) continue;
    const auto start = start_s.find(lane);
    output->set_spans(lane, since_lane_start(windows, start == start_s.end() ? 0 : start->second));
    any = true;
  }
  output->set_title(output_rate_title(output_rate_title_, any));
}

void RunChartSet::set_ttft_stride(int64_t stride) {
  panel(RunChart::TtftPerRequest)
      ->set_title(stride > 1
                      ? QObject::tr("%1 (1 in %2 requests shown)").arg(ttft_title_).arg(stride)
                      : ttft_title_);
}

}  // namespace lb::ui
