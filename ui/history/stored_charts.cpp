#include "ui/history/stored_charts.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/history/stored_run_series.h"
#include "ui/run/chart_catalog.h"
#include "widgets/chart/chart_panel.h"
#include "widgets/lane_palette.h"

namespace lb::ui {

using widgets::ChartPanel;

namespace {

// Up to six charts share the tab's height in two columns; with more (a capacity search adds
// three), each keeps this height and the charts scroll: three columns or shorter rows cut their
// axis titles and legends short.
constexpr int kScrolledChartHeightPx = 300;

// What an empty chart says: before a run is opened, and in a run that has no data for it.
QString no_run_text() { return QObject::tr("Open a run to see its charts"); }
QString no_data_text() { return QObject::tr("No finished requests in this run"); }

void say_when_empty(const std::vector<ChartPanel*>& panels, const QString& text) {
  for (ChartPanel* p : panels) p->set_empty_text(text);
}

}  // namespace

StoredCharts::StoredCharts(std::shared_ptr<widgets::LanePalette> palette, QWidget* parent)
    : QWidget(parent), palette_(std::move(palette)), charts_(palette_, no_run_text(), this) {
  lane_time_ = make_lane_time_box(this);
  connect(lane_time_, &QCheckBox::toggled, this, [this] {
    charts_.name_time_axes(lane_time_->isChecked());
    if (shown_) show_run(StoredRunSeries(*shown_));
  });
  charts_.name_time_axes(true);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->setSpacing(2);
  outer->addWidget(lane_time_, 0, Qt::AlignRight);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* canvas = new QWidget(scroll);
  grid_ = new QGridLayout(canvas);
  scroll->setWidget(canvas);
  outer->addWidget(scroll, 1);
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setSpacing(6);
  relayout(StoredRunSeries{});
}

std::vector<ChartPanel*> StoredCharts::panels() const { return charts_.panels(); }

std::vector<ChartPanel*> StoredCharts::shown_panels() const { return shown_panels_; }

void StoredCharts::relayout(const StoredRunSeries& series) {
  const std::vector<RunChart> always = RunChartSet::charts_of(std::nullopt);
  std::vector<RunChart> order;
  // The run's kinds in run order, as live; a run whose summary names none (killed early), any
  // kind whose charts have data.
  std::vector<record::ExperimentKind> kinds = series.kinds;
  if (kinds.empty()) kinds = record::all_experiment_kinds();
  for (record::ExperimentKind kind : kinds)
    for (RunChart chart : RunChartSet::charts_of(kind))
      if (!panel(chart)->lanes().isEmpty()) order.push_back(chart);
  order.insert(order.end(), always.begin(), always.end());
  std::vector<ChartPanel*> shown;
  for (RunChart chart : order)
    if (std::find(shown.begin(), shown.end(), panel(chart)) == shown.end())
      shown.push_back(panel(chart));
  for (ChartPanel* p : panels()) {
    grid_->removeWidget(p);
    p->hide();
  }
  shown_panels_ = shown;
  constexpr int kColumns = 2;
  const int min_height_px = shown.size() > 6 ? kScrolledChartHeightPx : 0;
  for (size_t i = 0; i < shown.size(); ++i) {
    grid_->addWidget(shown[i], static_cast<int>(i) / kColumns, static_cast<int>(i) % kColumns);
    shown[i]->setMinimumHeight(min_height_px);
    shown[i]->show();
  }
}

void StoredCharts::clear() {
  shown_.reset();
  charts_.clear();
  say_when_empty(panels(), no_run_text());
  relayout(StoredRunSeries{});
}

void StoredCharts::show_run(const StoredRunSeries& series) {
  clear();
  say_when_empty(panels(), no_data_text());
  shown_ = std::make_unique<StoredRunSeries>(series);
  const bool lane_time = lane_time_->isChecked();
  palette_->assign(series.lanes);  // the same lane keeps the same colour as live
  charts_.traffic().set_capacity_slo(series.capacity_slo);
  LaneProbes probes;
  std::map<QString, std::vector<widgets::XSpan>> windows;
  std::map<QString, double> start_s;
  int64_t ttft_stride = 1;
  for (const QString& lane : series.lanes) {
    const auto it = series.by_lane.find(lane);
    if (it == series.by_lane.end()) continue;
    const StoredLaneSeries& s = it->second;
    start_s[lane] = lane_time ? s.start_s : 0.0;
    charts_.draw_lane(lane, s, start_s[lane]);
    if (!s.capacity_probes.empty()) probes.emplace_back(lane, s.capacity_probes);
    if (!s.steady_windows.empty()) windows[lane] = s.steady_windows;
    ttft_stride = std::max(ttft_stride, s.ttft_stride);
  }
  charts_.draw_capacity(probes);
  RunChartSet::LanePhases pareto;
  for (const QString& lane : series.lanes) {  // plan order, as the other charts' legends
    if (const auto it = series.concurrency_phases.find(lane); it != series.concurrency_phases.end())
      charts_.draw_phases(lane, it->second);
    if (const auto it = series.pareto_phases.find(lane); it != series.pareto_phases.end())
      pareto.emplace_back(lane, it->second);
  }
  charts_.draw_pareto(pareto);
  charts_.draw_steady_windows(windows, start_s);
  charts_.set_ttft_stride(ttft_stride);
  relayout(series);
}

}  // namespace lb::ui
