#pragma once
// The run charts, drawn one way whether the run is live (LiveCharts, at each drain) or reopened
// (StoredCharts, once): every chart of the catalog (chart_catalog.h) and the traffic kinds'
// (TrafficCharts); which of them an experiment kind shows, first its own; and how a lane's
// series (lane_series.h), its phases' figures and the Pareto frontier are drawn.
#include <QString>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "core/record/experiment_kind.h"
#include "ui/run/chart_catalog.h"
#include "ui/run/lane_series.h"
#include "ui/run/traffic_charts.h"
#include "widgets/chart/chart_types.h"

class QWidget;

namespace lb::widgets {
class ChartPanel;
class LanePalette;
}  // namespace lb::widgets

namespace lb::ui {

class RunChartSet {
 public:
  // Every panel, a child of PARENT, showing EMPTY_TEXT until it has data.
  RunChartSet(const std::shared_ptr<widgets::LanePalette>& palette, const QString& empty_text,
              QWidget* parent);

  widgets::ChartPanel* panel(RunChart chart) const;
  std::vector<widgets::ChartPanel*> panels() const;  // in RunChart order
  TrafficCharts& traffic() { return traffic_; }
  const TrafficCharts& traffic() const { return traffic_; }

  // The charts an experiment of KIND shows, its own first; none known: the charts every run has.
  static std::vector<RunChart> charts_of(std::optional<record::ExperimentKind> kind);
  // The name of the Pareto chart's frontier series.
  static QString frontier_name();

  // Every panel emptied, the titles as they were.
  void clear();
  // The time axes: since each lane started, or since the run started.
  void name_time_axes(bool lane_time);

  // LANE's request series, its time charts shifted back by START_S (lane time; 0 for run time).
  // Charts with nothing of the lane are left as they are.
  void draw_lane(const QString& lane, LaneSeries series, double start_s);
  // The output rate alone (a live run redraws it as time goes on).
  void draw_output_rate(const QString& lane, std::vector<QPointF> points, double start_s);
  // LANE's phases on the per-concurrency charts (decode with its intervals, output).
  void draw_phases(const QString& lane, const std::vector<PhasePoint>& phases);
  // Each lane's phases as (total output, median decode), lanes in the order given (the legend's),
  // and the frontier over all of them.
  using LanePhases = std::vector<std::pair<QString, std::vector<PhasePoint>>>;
  void draw_pareto(const LanePhases& lanes);
  // Every lane's capacity probes, with the SLOs of the search.
  void draw_capacity(const LaneProbes& probes);
  // The steady windows shaded on the output chart, by lane, shifted back by each START_S; the
  // title says what the shading is.
  void draw_steady_windows(const std::map<QString, std::vector<widgets::XSpan>>& by_lane,
                           const std::map<QString, double>& start_s);
  // The TTFT chart's title says when it shows only every STRIDE-th request.
  void set_ttft_stride(int64_t stride);

 private:
  std::map<RunChart, widgets::ChartPanel*> panels_;
  TrafficCharts traffic_;
  QString ttft_title_;
  QString output_rate_title_;
};

}  // namespace lb::ui
