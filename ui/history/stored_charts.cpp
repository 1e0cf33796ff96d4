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

}  // namespace

StoredCharts::StoredCharts(std::shared_ptr<widgets::LanePalette> palette, QWidget* parent)
    : QWidget(parent),
      palette_(std::move(palette)),
      traffic_(palette_, tr("No finished requests in this run"), this) {
  const QString empty = tr("No finished requests in this run");
  output_rate_ = make_run_chart(RunChart::OutputRate, palette_, empty, this);
  ttft_ = make_run_chart(RunChart::TtftPerRequest, palette_, empty, this);
  ttft_title_ = ttft_->title();
  output_rate_title_ = output_rate_->title();
  itl_ = make_run_chart(RunChart::Itl, palette_, empty, this);
  tokens_per_event_ = make_run_chart(RunChart::TokensPerEvent, palette_, empty, this);
  decode_ctx_ = make_run_chart(RunChart::DecodeVsContext, palette_, empty, this);
  ttft_ctx_ = make_run_chart(RunChart::TtftVsContext, palette_, empty, this);
  lane_time_ = make_lane_time_box(this);
  connect(lane_time_, &QCheckBox::toggled, this, [this] {
    name_time_axes(output_rate_, ttft_, lane_time_->isChecked());
    traffic_.name_time_axis(lane_time_->isChecked());
    if (shown_) show_run(StoredRunSeries(*shown_));
  });
  name_time_axes(output_rate_, ttft_, true);
  traffic_.name_time_axis(true);
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

std::vector<ChartPanel*> StoredCharts::panels() const {
  std::vector<ChartPanel*> out = {output_rate_,      ttft_,       itl_,
                                  tokens_per_event_, decode_ctx_, ttft_ctx_};
  for (ChartPanel* panel : traffic_.panels()) out.push_back(panel);
  return out;
}

std::vector<ChartPanel*> StoredCharts::shown_panels() const {
  std::vector<ChartPanel*> out;
  for (ChartPanel* panel : panels())
    if (!panel->isHidden()) out.push_back(panel);
  return out;
}

void StoredCharts::relayout(const StoredRunSeries& series) {
  std::vector<ChartPanel*> shown;
  if (series.has_lateness()) shown.push_back(traffic_.lateness());
  if (series.has_turns()) shown.push_back(traffic_.ttft_by_turn());
  if (series.has_capacity_probes())
    for (ChartPanel* panel : traffic_.capacity_panels()) shown.push_back(panel);
  if (series.has_context_points()) shown.insert(shown.end(), {decode_ctx_, ttft_ctx_});
  shown.insert(shown.end(), {output_rate_, ttft_, itl_, tokens_per_event_});
  for (ChartPanel* panel : panels()) {
    grid_->removeWidget(panel);
    panel->hide();
  }
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
  for (ChartPanel* panel : panels()) panel->clear();
  relayout(StoredRunSeries{});
}

void StoredCharts::draw_traffic(const StoredRunSeries& series, bool lane_time) {
  traffic_.set_capacity_slo(series.capacity_slo);
  LaneProbes probes;
  for (const QString& lane : series.lanes) {
    const auto it = series.by_lane.find(lane);
    if (it == series.by_lane.end()) continue;
    const StoredLaneSeries& s = it->second;
    traffic_.set_lateness(lane, since_lane_start(s.lateness_ms, lane_time ? s.start_s : 0.0));
    traffic_.set_ttft_by_turn(lane, s.ttft_by_turn);
    if (!s.capacity_probes.empty()) probes.emplace_back(lane, s.capacity_probes);
  }
  if (!probes.empty()) traffic_.set_capacity(probes);
}

void StoredCharts::show_run(const StoredRunSeries& series) {
  clear();
  shown_ = std::make_unique<StoredRunSeries>(series);
  const bool lane_time = lane_time_->isChecked();
  palette_->assign(series.lanes);  // the same lane keeps the same colour as live
  for (const QString& lane : series.lanes) {
    const auto it = series.by_lane.find(lane);
    if (it == series.by_lane.end()) continue;
    const StoredLaneSeries& s = it->second;
    const double start_s = lane_time ? s.start_s : 0.0;
    if (!s.output_tok_s.empty())
      output_rate_->set_series(lane, since_lane_start(s.output_tok_s, start_s));
    if (!s.steady_windows.empty())
      output_rate_->set_spans(lane, since_lane_start(s.steady_windows, start_s));
    if (!s.ttft_ms.empty()) ttft_->set_series(lane, since_lane_start(s.ttft_ms, start_s));
    if (!s.itl_sample_ms.values().empty()) itl_->set_samples(lane, s.itl_sample_ms.values());
    if (!s.tokens_per_event_sample.values().empty())
      tokens_per_event_->set_samples(lane, s.tokens_per_event_sample.values());
    if (!s.ttft_vs_context.empty()) {
      decode_ctx_->set_series(lane, s.decode_vs_context);
      ttft_ctx_->set_series(lane, s.ttft_vs_context);
    }
  }
  draw_traffic(series, lane_time);
  const bool windows = std::any_of(series.by_lane.begin(), series.by_lane.end(),
                                   [](const auto& l) { return !l.second.steady_windows.empty(); });
  output_rate_->set_title(output_rate_title(output_rate_title_, windows));
  int64_t ttft_stride = 1;
  for (const auto& [lane, s] : series.by_lane) ttft_stride = std::max(ttft_stride, s.ttft_stride);
  ttft_->set_title(ttft_stride > 1
                       ? tr("%1 (1 in %2 requests shown)").arg(ttft_title_).arg(ttft_stride)
                       : ttft_title_);
  relayout(series);
}

}  // namespace lb::ui
