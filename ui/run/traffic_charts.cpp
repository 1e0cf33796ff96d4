#include "ui/run/traffic_charts.h"

#include <QColor>
#include <QObject>
#include <algorithm>

#include "core/run/experiments/capacity_experiment.h"
#include "core/run/experiments/trace_experiment.h"
#include "ui/run/chart_catalog.h"
#include "widgets/chart/chart_panel.h"

namespace lb::ui {
namespace {

using widgets::ChartPanel;

const QColor kGuide(0x55, 0x55, 0x55);
// Marks drawn over lane points: near-black dots and magenta diamonds, colours no lane takes (the
// lane palette's green and vermillion were too close to the marks' earlier green and red).
const QColor kMet(0x22, 0x22, 0x22);
const QColor kMissed(0xc0, 0x00, 0xc0);

// One SLO line across the loads probed so far, or none when the SLO is not set.
void set_slo_line(ChartPanel* panel, double slo_ms, double max_load) {
  if (slo_ms <= 0 || max_load <= 0) return;
  panel->set_marks(QObject::tr("SLO %1 ms").arg(slo_ms), {{0, slo_ms}, {max_load, slo_ms}}, kGuide,
                   widgets::MarkShape::DashedLine);
}

}  // namespace

TrafficCharts::TrafficCharts(const std::shared_ptr<widgets::LanePalette>& palette,
                             const QString& empty_text, QWidget* parent) {
  lateness_ = make_run_chart(RunChart::TraceLateness, palette, empty_text, parent);
  turn_ttft_ = make_run_chart(RunChart::TtftByTurn, palette, empty_text, parent);
  cap_probes_ = make_run_chart(RunChart::CapacityProbes, palette, empty_text, parent);
  cap_ttft_ = make_run_chart(RunChart::CapacityTtft, palette, empty_text, parent);
  cap_tpot_ = make_run_chart(RunChart::CapacityTpot, palette, empty_text, parent);
}

std::vector<ChartPanel*> TrafficCharts::capacity_panels() const {
  return {cap_probes_, cap_ttft_, cap_tpot_};
}

std::vector<ChartPanel*> TrafficCharts::panels() const {
  return {lateness_, turn_ttft_, cap_probes_, cap_ttft_, cap_tpot_};
}

QString TrafficCharts::slo_met_name() { return QObject::tr("met SLOs"); }

QString TrafficCharts::slo_missed_name() { return QObject::tr("missed"); }

void TrafficCharts::name_time_axis(bool lane_time) {
  lateness_->set_axes({lane_time ? QObject::tr("Scheduled at, since the lane started")
                                 : QObject::tr("Scheduled at, since the run started"),
                       "s"},
                      lateness_->y_axis());
}

void TrafficCharts::set_capacity_slo(const CapacitySlo& slo) {
  slo_ = slo;
  const QString unit = slo.by_rate ? QStringLiteral("req/s") : QStringLiteral("streams");
  cap_probes_->set_axes(cap_probes_->x_axis(), {QObject::tr("Load"), unit});
  for (ChartPanel* panel : {cap_ttft_, cap_tpot_})
    panel->set_axes(
        {slo.by_rate ? QObject::tr("Probe request rate") : QObject::tr("Probe concurrency"), unit},
        panel->y_axis());
}

// Each sent request at its scheduled time, and the line above which the run counts it late.
void TrafficCharts::set_lateness(const QString& lane, std::vector<QPointF> points) {
  if (points.empty()) return;
  lateness_->set_series(lane, std::move(points));
  double last_s = 0;
  for (const QString& name : lateness_->lanes())
    for (const QPointF& p : lateness_->series(name)) last_s = std::max(last_s, p.x());
  if (last_s > 0)
    lateness_->set_marks(QObject::tr("late > %1 ms").arg(run::kLateThresholdMs),
                         {{0, run::kLateThresholdMs}, {last_s, run::kLateThresholdMs}}, kGuide,
                         widgets::MarkShape::DashedLine);
}

void TrafficCharts::set_ttft_by_turn(const QString& lane, std::vector<QPointF> turns) {
  if (!turns.empty()) turn_ttft_->set_series(lane, std::move(turns));
}

// Each probe judged as the search judges it, over the requests it has so far (a running probe's
// mark can still change).
void TrafficCharts::set_capacity(const LaneProbes& lanes) {
  std::vector<QPointF> met[3], missed[3];  // probes, TTFT, TPOT
  double max_load = 0;
  for (const auto& [lane, probes] : lanes) {
    std::vector<QPointF> loads, ttft, tpot;
    for (size_t i = 0; i < probes.size(); ++i) {
      const ProbeFigures& f = probes[i];
      run::CapacityProbe probe;
      probe.load = f.load;
      probe.ttft_p99_ms = f.ttft_p99_ms;
      probe.tpot_p99_ms = f.tpot_p99_ms;
      probe.completed = f.completed;
      probe.errors = f.errors;
      run::judge_probe(probe, slo_.ttft_p99_ms, slo_.tpot_p99_ms);
      std::vector<QPointF>* marks = probe.pass ? met : missed;
      const QPointF at(static_cast<double>(i + 1), f.load);
      loads.push_back(at);
      marks[0].push_back(at);
      if (f.ttft_p99_ms >= 0) {
        insert_sorted(ttft, {f.load, f.ttft_p99_ms});
        marks[1].emplace_back(f.load, f.ttft_p99_ms);
      }
      if (f.tpot_p99_ms >= 0) {
        insert_sorted(tpot, {f.load, f.tpot_p99_ms});
        marks[2].emplace_back(f.load, f.tpot_p99_ms);
      }
      max_load = std::max(max_load, f.load);
    }
    if (!loads.empty()) cap_probes_->set_series(lane, std::move(loads));
    if (!ttft.empty()) cap_ttft_->set_series(lane, std::move(ttft));
    if (!tpot.empty()) cap_tpot_->set_series(lane, std::move(tpot));
  }
  set_slo_line(cap_ttft_, slo_.ttft_p99_ms, max_load);
  set_slo_line(cap_tpot_, slo_.tpot_p99_ms, max_load);
  const std::vector<ChartPanel*> panels = capacity_panels();
  for (size_t k = 0; k < panels.size(); ++k) {
    if (met[k].empty() && missed[k].empty()) continue;
    panels[k]->set_marks(slo_met_name(), std::move(met[k]), kMet, widgets::MarkShape::Dot);
    panels[k]->set_marks(slo_missed_name(), std::move(missed[k]), kMissed,
                         widgets::MarkShape::Diamond);
  }
}

}  // namespace lb::ui
