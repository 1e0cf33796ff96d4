#include "ui/history/stored_charts.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/history/stored_run_series.h"
#include "ui/run/chart_catalog.h"
#include "widgets/chart/chart_panel.h"
#include "widgets/lane_palette.h"

namespace lb::ui {

using widgets::ChartPanel;

StoredCharts::StoredCharts(std::shared_ptr<widgets::LanePalette> palette, QWidget* parent)
    : QWidget(parent), palette_(std::move(palette)) {
  const QString empty = tr("No finished requests in this run");
  output_rate_ = make_run_chart(RunChart::OutputRate, palette_, empty, this);
  ttft_ = make_run_chart(RunChart::TtftPerRequest, palette_, empty, this);
  ttft_title_ = ttft_->title();
  itl_ = make_run_chart(RunChart::Itl, palette_, empty, this);
  tokens_per_event_ = make_run_chart(RunChart::TokensPerEvent, palette_, empty, this);
  decode_ctx_ = make_run_chart(RunChart::DecodeVsContext, palette_, empty, this);
  ttft_ctx_ = make_run_chart(RunChart::TtftVsContext, palette_, empty, this);
  lane_time_ = make_lane_time_box(this);
  connect(lane_time_, &QCheckBox::toggled, this, [this] {
    name_time_axes(output_rate_, ttft_, lane_time_->isChecked());
    if (shown_) show_run(StoredRunSeries(*shown_));
  });
  name_time_axes(output_rate_, ttft_, true);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->setSpacing(2);
  outer->addWidget(lane_time_, 0, Qt::AlignRight);
  auto* grid = new QGridLayout;
  outer->addLayout(grid, 1);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(6);
  grid->addWidget(output_rate_, 0, 0);
  grid->addWidget(ttft_, 0, 1);
  grid->addWidget(itl_, 1, 0);
  grid->addWidget(tokens_per_event_, 1, 1);
  grid->addWidget(decode_ctx_, 2, 0);
  grid->addWidget(ttft_ctx_, 2, 1);
  decode_ctx_->hide();
  ttft_ctx_->hide();
}

std::vector<ChartPanel*> StoredCharts::panels() const {
  return {output_rate_, ttft_, itl_, tokens_per_event_, decode_ctx_, ttft_ctx_};
}

void StoredCharts::clear() {
  shown_.reset();
  for (ChartPanel* panel : panels()) panel->clear();
  decode_ctx_->hide();
  ttft_ctx_->hide();
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
    if (!s.ttft_ms.empty()) ttft_->set_series(lane, since_lane_start(s.ttft_ms, start_s));
    if (!s.itl_sample_ms.values().empty()) itl_->set_samples(lane, s.itl_sample_ms.values());
    if (!s.tokens_per_event_sample.values().empty())
      tokens_per_event_->set_samples(lane, s.tokens_per_event_sample.values());
    if (!s.ttft_vs_context.empty()) {
      decode_ctx_->set_series(lane, s.decode_vs_context);
      ttft_ctx_->set_series(lane, s.ttft_vs_context);
    }
  }
  int64_t ttft_stride = 1;
  for (const auto& [lane, s] : series.by_lane) ttft_stride = std::max(ttft_stride, s.ttft_stride);
  ttft_->set_title(ttft_stride > 1
                       ? tr("%1 (1 in %2 requests shown)").arg(ttft_title_).arg(ttft_stride)
                       : ttft_title_);
  decode_ctx_->setVisible(series.has_context_points());
  ttft_ctx_->setVisible(series.has_context_points());
}

}  // namespace lb::ui
