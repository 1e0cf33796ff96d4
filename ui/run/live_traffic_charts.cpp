// The live charts of the traffic kinds: a trace replay's send lateness against its schedule,
// sessions' TTFT by turn, and a capacity search's probes against the SLOs as it narrows.
#include <QColor>
#include <algorithm>

#include "run/capacity_experiment.h"
#include "run/trace_experiment.h"
#include "ui/run/bounded_samples.h"
#include "ui/run/live_charts.h"
#include "ui/run/live_run_data.h"
#include "widgets/chart/chart_panel.h"

namespace lb::ui {
namespace {

const QColor kGuide(0x55, 0x55, 0x55);
// Marks drawn over lane points: near-black dots and magenta diamonds, colours no lane takes (the
// lane palette's green and vermillion were too close to the marks' earlier green and red).
const QColor kMet(0x22, 0x22, 0x22);
const QColor kMissed(0xc0, 0x00, 0xc0);

// One SLO line across the loads probed so far, or none when the SLO is not set.
void set_slo_line(widgets::ChartPanel* panel, double slo_ms, double max_load) {
  if (slo_ms <= 0 || max_load <= 0) return;
  panel->set_marks(QObject::tr("SLO %1 ms").arg(slo_ms), {{0, slo_ms}, {max_load, slo_ms}}, kGuide,
                   widgets::MarkShape::DashedLine);
}

}  // namespace

QString LiveCharts::slo_met_name() { return tr("met SLOs"); }

QString LiveCharts::slo_missed_name() { return tr("missed"); }

void LiveCharts::set_capacity_slo(double ttft_p99_ms, double tpot_p99_ms, bool by_rate) {
  cap_ttft_slo_ms_ = ttft_p99_ms;
  cap_tpot_slo_ms_ = tpot_p99_ms;
  const QString unit = by_rate ? QStringLiteral("req/s") : QStringLiteral("streams");
  cap_probes_->set_axes(cap_probes_->x_axis(), {tr("Load"), unit});
  for (widgets::ChartPanel* panel : {cap_ttft_, cap_tpot_})
    panel->set_axes({by_rate ? tr("Probe request rate") : tr("Probe concurrency"), unit},
                    panel->y_axis());
}

void LiveCharts::update_traffic(const LiveRunData& data, const std::set<QString>& changed) {
  if (kind_ == "trace") update_lateness(data, changed);
  if (kind_ == "capacity") update_capacity(data);
  if (kind_ != "sessions") return;
  for (const QString& lane : changed) {
    std::vector<QPointF> turns = data.ttft_by_turn(lane);
    if (!turns.empty()) turn_ttft_->set_series(lane, std::move(turns));
  }
}

// Each sent request at its scheduled time, and the line above which the run counts it late.
void LiveCharts::update_lateness(const LiveRunData& data, const std::set<QString>& changed) {
  for (const QString& lane : changed) {
    const std::vector<QPointF>& points = data.lateness_over_schedule(lane);
    if (!points.empty())
      lateness_->set_series(lane, since_lane_start(points, lane_start_s(data, lane)));
  }
  double last_s = 0;
  for (const QString& lane : lateness_->lanes())
    for (const QPointF& p : lateness_->series(lane)) last_s = std::max(last_s, p.x());
  if (last_s > 0)
    lateness_->set_marks(tr("late > %1 ms").arg(run::kLateThresholdMs),
                         {{0, run::kLateThresholdMs}, {last_s, run::kLateThresholdMs}}, kGuide,
                         widgets::MarkShape::DashedLine);
}

// Every lane's probes so far, judged as the search judges them over the requests finished so far
// (a running probe's mark can still change): the load of each probe in turn, and each SLO
// figure against load with its limit.
void LiveCharts::update_capacity(const LiveRunData& data) {
  std::vector<QPointF> met[3], missed[3];  // probes, TTFT, TPOT
  double max_load = 0;
  for (const QString& lane : data.lanes()) {
    const std::vector<LiveRunData::ProbeFigures> probes = data.capacity_probes(lane);
    std::vector<QPointF> loads, ttft, tpot;
    for (size_t i = 0; i < probes.size(); ++i) {
      const LiveRunData::ProbeFigures& f = probes[i];
      run::CapacityProbe probe;
      probe.load = f.load;
      probe.ttft_p99_ms = f.ttft_p99_ms;
      probe.tpot_p99_ms = f.tpot_p99_ms;
      probe.completed = f.completed;
      probe.errors = f.errors;
      run::judge_probe(probe, cap_ttft_slo_ms_, cap_tpot_slo_ms_);
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
  set_slo_line(cap_ttft_, cap_ttft_slo_ms_, max_load);
  set_slo_line(cap_tpot_, cap_tpot_slo_ms_, max_load);
  widgets::ChartPanel* const panels[3] = {cap_probes_, cap_ttft_, cap_tpot_};
  for (int k = 0; k < 3; ++k) {
    widgets::ChartPanel* panel = panels[k];
    if (met[k].empty() && missed[k].empty()) continue;
    panel->set_marks(slo_met_name(), std::move(met[k]), kMet, widgets::MarkShape::Dot);
    panel->set_marks(slo_missed_name(), std::move(missed[k]), kMissed, widgets::MarkShape::Diamond);
  }
}

}  // namespace lb::ui
