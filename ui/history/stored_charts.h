#pragma once
// The charts of a stored run, read-only, drawn from StoredRunSeries so a reopened run looks as
// it did live: output rate, TTFT per request, ITL and tokens per event; the two context-length
// charts when the run has a context sweep; and the traffic kinds' charts as the Run page draws
// them (TrafficCharts) when it has their requests: send lateness (trace), TTFT by turn
// (sessions), the capacity search's three charts with SLO lines and met/missed marks. Each
// chart keeps its context menu for PNG/SVG/PDF export.
#include <QWidget>
#include <memory>
#include <vector>

#include "ui/run/traffic_charts.h"

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
  std::vector<widgets::ChartPanel*> shown_panels() const;
  widgets::ChartPanel* ttft() const { return ttft_; }
  widgets::ChartPanel* output_rate() const { return output_rate_; }
  widgets::ChartPanel* itl() const { return itl_; }
  widgets::ChartPanel* tokens_per_event() const { return tokens_per_event_; }
  widgets::ChartPanel* decode_vs_context() const { return decode_ctx_; }
  widgets::ChartPanel* ttft_vs_context() const { return ttft_ctx_; }
  widgets::ChartPanel* trace_lateness() const { return traffic_.lateness(); }
  widgets::ChartPanel* ttft_by_turn() const { return traffic_.ttft_by_turn(); }
  widgets::ChartPanel* capacity_probes() const { return traffic_.capacity_probes(); }
  widgets::ChartPanel* capacity_ttft() const { return traffic_.capacity_ttft(); }
  widgets::ChartPanel* capacity_tpot() const { return traffic_.capacity_tpot(); }

 private:
  void draw_traffic(const StoredRunSeries& series, bool lane_time);
  // The run's own charts first (as the Run page puts a kind's charts first), two columns.
  void relayout(const StoredRunSeries& series);

  std::shared_ptr<widgets::LanePalette> palette_;
  widgets::ChartPanel* output_rate_ = nullptr;
  widgets::ChartPanel* ttft_ = nullptr;
  widgets::ChartPanel* itl_ = nullptr;
  widgets::ChartPanel* tokens_per_event_ = nullptr;
  widgets::ChartPanel* decode_ctx_ = nullptr;
  widgets::ChartPanel* ttft_ctx_ = nullptr;
  TrafficCharts traffic_;
  QGridLayout* grid_ = nullptr;
  QString ttft_title_;         // the TTFT chart's own title, before any "1 in N shown"
  QString output_rate_title_;  // the output chart's own title, before the steady windows' note
  QCheckBox* lane_time_ = nullptr;
  std::unique_ptr<StoredRunSeries> shown_;  // redrawn when the time axis changes
};

}  // namespace lb::ui
