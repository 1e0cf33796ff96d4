#pragma once
// The Run page's charts, chosen per experiment kind: aggregate output tok/s over time, TTFT per
// request over time, ITL distribution, tokens per event (the MTP signature), decode rate and TTFT
// versus context length (context sweep), TTFT per pass (prefix cache), decode rate and aggregate
// throughput per concurrency (throughput, speculative), send lateness against the schedule
// (trace), TTFT by turn (sessions), the capacity search's probes against the SLOs (capacity), the
// Pareto chart (throughput, trace, capacity), and a live gate score table (gates). The charts
// are the ones a reopened run draws, drawn the same way (RunChartSet); each is a ChartPanel, so
// each coalesces its own redraws to <= 30 Hz.
#include <QWidget>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "core/record/experiment_kind.h"
#include "core/record/run_summary.h"
#include "ui/run/run_chart_set.h"
#include "widgets/chart/chart_types.h"

class QCheckBox;
class QPushButton;
class QGridLayout;
class QTableView;

class QStandardItemModel;

namespace lb::widgets {
class ChartPanel;
class LanePalette;
}  // namespace lb::widgets

namespace lb::ui {

class LiveGateScores;
struct StoredRunSeries;
class LiveRunData;

class LiveCharts : public QWidget {
  Q_OBJECT
 public:
  LiveCharts(std::shared_ptr<widgets::LanePalette> palette, QWidget* parent = nullptr);

  void clear();
  // Shows the charts of this experiment kind ("regression", "context_sweep", ...); a kind this
  // version does not know shows the charts every run has.
  void set_kind(const QString& kind);
  QString kind() const;
  // Hands every shown chart the new data of the changed lanes (the panels coalesce the redraws).
  // DATA must outlive this widget's use of it: a change of the time axis redraws from it.
  void update_from(const LiveRunData& data, const std::set<QString>& changed, double now_s);
  // The experiment drawn from DATA is over and DATA is about to hold the next one's: the charts
  // draw and keep a copy of DATA's series (what a change of time axis redraws), and no longer
  // read DATA.
  void keep_drawn(const LiveRunData& data);
  // Time charts on "since each lane started" (lanes run one after another overlay; the default)
  // or on "since the run started" (wall time).
  void set_lane_time(bool on);
  bool lane_time() const;
  QCheckBox* lane_time_box() const { return lane_time_; }
  std::vector<widgets::ChartPanel*> panels() const;
  std::vector<widgets::ChartPanel*> shown_panels() const;
  widgets::ChartPanel* output_rate() const { return charts_.panel(RunChart::OutputRate); }
  widgets::ChartPanel* ttft() const { return charts_.panel(RunChart::TtftPerRequest); }
  widgets::ChartPanel* itl() const { return charts_.panel(RunChart::Itl); }
  widgets::ChartPanel* tokens_per_event() const { return charts_.panel(RunChart::TokensPerEvent); }
  widgets::ChartPanel* decode_vs_context() const {
    return charts_.panel(RunChart::DecodeVsContext);
  }
  widgets::ChartPanel* ttft_vs_context() const { return charts_.panel(RunChart::TtftVsContext); }
  widgets::ChartPanel* ttft_per_pass() const { return charts_.panel(RunChart::TtftPerPass); }
  widgets::ChartPanel* decode_vs_concurrency() const {
    return charts_.panel(RunChart::DecodeVsConcurrency);
  }
  widgets::ChartPanel* output_vs_concurrency() const {
    return charts_.panel(RunChart::OutputVsConcurrency);
  }
  widgets::ChartPanel* pareto() const { return charts_.panel(RunChart::Pareto); }
  widgets::ChartPanel* trace_lateness() const { return charts_.panel(RunChart::TraceLateness); }
  widgets::ChartPanel* ttft_by_turn() const { return charts_.panel(RunChart::TtftByTurn); }
  widgets::ChartPanel* capacity_probes() const { return charts_.panel(RunChart::CapacityProbes); }
  widgets::ChartPanel* capacity_ttft() const { return charts_.panel(RunChart::CapacityTtft); }
  widgets::ChartPanel* capacity_tpot() const { return charts_.panel(RunChart::CapacityTpot); }
  // The running capacity experiment's SLOs and load unit: the SLO lines, the pass/fail marks and
  // the load axes' unit.
  void set_capacity_slo(const CapacitySlo& slo) { charts_.traffic().set_capacity_slo(slo); }
  // The names of the capacity charts' marks (TrafficCharts).
  static QString slo_met_name() { return TrafficCharts::slo_met_name(); }
  static QString slo_missed_name() { return TrafficCharts::slo_missed_name(); }
  // The name of the Pareto chart's frontier series.
  static QString frontier_name() { return RunChartSet::frontier_name(); }
  QTableView* gate_view() const { return gate_view_; }
  QStandardItemModel* gate_model() const { return gate_model_; }
  // Rows gates, columns lanes; cells coloured by status, the reason in the tooltip.
  void set_gate_scores(const LiveGateScores& scores);
  // A finished throughput experiment's steady windows (its SECTION), shaded on the output chart
  // at each level's first send as DATA saw it; kept across a change of time axis.
  void set_steady_windows(const record::ExperimentSection& section, const LiveRunData& data);
  // Another run's series drawn dashed beside the live ones for comparison, named "RUN:lane" and
  // coloured as the lane: output tok/s over time (on the lane-time axis when that is on), and a
  // context sweep's decode and TTFT against prompt length. Kept across clear() until replaced
  // or cleared.
  void set_overlay(const QString& run_name, std::shared_ptr<const StoredRunSeries> series);
  void clear_overlay();
  QString overlay_run() const { return overlay_run_; }

 signals:
  // The user asked to overlay a run (the Overlay Run… button) or to remove it.
  void overlay_requested();

 public:
  // The panel under the keyboard focus or the mouse, else the first shown (for File > Export).
  widgets::ChartPanel* current_panel() const;

 private:
  void apply_steady_windows(const std::map<QString, double>& start_s);
  // Redraws a finished experiment's kept series on the current time axis.
  void redraw_kept();
  std::map<QString, std::vector<widgets::XSpan>> steady_;  // by lane, in s since the run's t0
  void relayout(const std::vector<QWidget*>& shown);
  // Where the lane's time axis starts: its first request on lane time, else the run's start.
  double lane_start_s(const LiveRunData& data, const QString& lane) const;
  std::map<QString, double> lane_starts(const LiveRunData& data) const;  // of every lane
  void apply_overlay();
  // The per-phase charts, the Pareto chart and the capacity probes of the running kind.
  void update_phases(const LiveRunData& data, const std::set<QString>& changed);

  std::optional<record::ExperimentKind> kind_;
  bool is(record::ExperimentKind kind) const { return kind_ == kind; }
  RunChartSet charts_;
  QStandardItemModel* gate_model_ = nullptr;
  QTableView* gate_view_ = nullptr;
  QGridLayout* grid_ = nullptr;
  QCheckBox* lane_time_ = nullptr;
  QPushButton* overlay_button_ = nullptr;
  const LiveRunData* data_ = nullptr;  // the last data shown, for redrawing on a new time axis
  // A finished experiment's series and lane starts (keep_drawn), once data_ is gone.
  struct KeptLane {
    LaneSeries series;
    double start_s = 0;
  };
  std::map<QString, KeptLane> kept_;
  double now_s_ = 0;
  QString overlay_run_;
  std::shared_ptr<const StoredRunSeries> overlay_;
};

}  // namespace lb::ui
