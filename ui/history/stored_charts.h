#pragma once
// The charts of a stored run, read-only, drawn from StoredRunSeries by the Run page's own charts
// (RunChartSet) so a reopened run looks as it did live: each of its experiments' kinds' charts
// that have data, first (the per-concurrency and Pareto charts from its summary's levels, the
// context-length, prefix-cache pass and traffic kinds' charts from its requests), then output
// rate, TTFT per request, ITL and tokens per event. Each chart keeps its context menu for
// PNG/SVG/PDF export.
#include <QWidget>
#include <memory>
#include <vector>

#include "ui/run/run_chart_set.h"

class QCheckBox;
class QGridLayout;

namespace lb::widgets {
class ChartPanel;
class LanePalette;
}  // namespace lb::widgets

namespace lb::ui {

struct StoredRunSeries;

class StoredCharts : public QWidget {
  Q_OBJECT
 public:
  StoredCharts(std::shared_ptr<widgets::LanePalette> palette, QWidget* parent = nullptr);

  void show_run(const StoredRunSeries& series);
  void clear();
  // As on the Run page: time since each lane started (the default), or since the run started.
  QCheckBox* lane_time_box() const { return lane_time_; }
  std::vector<widgets::ChartPanel*> panels() const;
  std::vector<widgets::ChartPanel*> shown_panels() const;  // in the order they are laid out
  widgets::ChartPanel* panel(RunChart chart) const { return charts_.panel(chart); }
  widgets::ChartPanel* ttft() const { return panel(RunChart::TtftPerRequest); }
  widgets::ChartPanel* output_rate() const { return panel(RunChart::OutputRate); }
  widgets::ChartPanel* itl() const { return panel(RunChart::Itl); }
  widgets::ChartPanel* tokens_per_event() const { return panel(RunChart::TokensPerEvent); }
  widgets::ChartPanel* decode_vs_context() const { return panel(RunChart::DecodeVsContext); }
  widgets::ChartPanel* ttft_vs_context() const { return panel(RunChart::TtftVsContext); }
  widgets::ChartPanel* trace_lateness() const { return panel(RunChart::TraceLateness); }
  widgets::ChartPanel* ttft_by_turn() const { return panel(RunChart::TtftByTurn); }
  widgets::ChartPanel* capacity_probes() const { return panel(RunChart::CapacityProbes); }
  widgets::ChartPanel* capacity_ttft() const { return panel(RunChart::CapacityTtft); }
  widgets::ChartPanel* capacity_tpot() const { return panel(RunChart::CapacityTpot); }

 private:
  // The run's kinds' charts that have data first, then the charts every run has; two columns.
  void relayout(const StoredRunSeries& series);

  std::shared_ptr<widgets::LanePalette> palette_;
  RunChartSet charts_;
  QGridLayout* grid_ = nullptr;
  std::vector<widgets::ChartPanel*> shown_panels_;
  QCheckBox* lane_time_ = nullptr;
  std::unique_ptr<StoredRunSeries> shown_;  // redrawn when the time axis changes
};

}  // namespace lb::ui
