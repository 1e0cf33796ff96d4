#pragma once
// The traffic kinds' charts, drawn the same way on the Run page and for a reopened run: a trace
// replay's send lateness against its schedule with the 10 ms line, sessions' median TTFT by
// turn, and a capacity search's probes (the load of each in turn; p99 TTFT and TPOT against
// load with the SLO lines), each probe marked as the search judges it (run::judge_probe).
#include <QPointF>
#include <QString>
#include <memory>
#include <utility>
#include <vector>

#include "ui/run/traffic_series.h"

class QWidget;

namespace lb::widgets {
class ChartPanel;
class LanePalette;
}  // namespace lb::widgets

namespace lb::ui {

// Each lane's probes in the order they started.
using LaneProbes = std::vector<std::pair<QString, std::vector<ProbeFigures>>>;

class TrafficCharts {
 public:
  // The five panels, children of PARENT, showing EMPTY_TEXT until they have data.
  TrafficCharts(const std::shared_ptr<widgets::LanePalette>& palette, const QString& empty_text,
                QWidget* parent);

  widgets::ChartPanel* lateness() const { return lateness_; }
  widgets::ChartPanel* ttft_by_turn() const { return turn_ttft_; }
  widgets::ChartPanel* capacity_probes() const { return cap_probes_; }
  widgets::ChartPanel* capacity_ttft() const { return cap_ttft_; }
  widgets::ChartPanel* capacity_tpot() const { return cap_tpot_; }
  std::vector<widgets::ChartPanel*> capacity_panels() const;
  std::vector<widgets::ChartPanel*> panels() const;

  // The lateness chart's time axis: since each lane started, or since the run started.
  void name_time_axis(bool lane_time);
  // The SLO lines, the marks' verdicts and the load axes' unit of the capacity charts.
  void set_capacity_slo(const CapacitySlo& slo);
  const CapacitySlo& capacity_slo() const { return slo_; }

  // The lane's lateness points on the chart's clock; the 10 ms line spans every lane's.
  void set_lateness(const QString& lane, std::vector<QPointF> points);
  void set_ttft_by_turn(const QString& lane, std::vector<QPointF> turns);
  // Every lane's probes so far: the load of each probe in turn, each SLO figure against load
  // with its limit, and the met/missed marks over all of them.
  void set_capacity(const LaneProbes& lanes);

  // The names of the capacity charts' marks: probes that met every SLO so far ("met SLOs"), and
  // the others ("missed"); the SLO lines are named "SLO N ms".
  static QString slo_met_name();
  static QString slo_missed_name();

 private:
  widgets::ChartPanel* lateness_ = nullptr;
  widgets::ChartPanel* turn_ttft_ = nullptr;
  widgets::ChartPanel* cap_probes_ = nullptr;
  widgets::ChartPanel* cap_ttft_ = nullptr;
  widgets::ChartPanel* cap_tpot_ = nullptr;
  CapacitySlo slo_;
};

}  // namespace lb::ui
