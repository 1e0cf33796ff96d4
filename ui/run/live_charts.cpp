#include "ui/run/live_charts.h"

#include <QApplication>
#include <QCursor>
#include <QGridLayout>

#include "ui/run/live_run_data.h"
#include "widgets/chart/chart_panel.h"

namespace lb::ui {

using widgets::AxisSpec;
using widgets::ChartKind;
using widgets::ChartPanel;

namespace {

ChartPanel* make_panel(ChartKind kind, const QString& title, AxisSpec x, AxisSpec y,
                       std::shared_ptr<widgets::LanePalette> palette, QWidget* parent) {
  auto* panel = new ChartPanel(kind, std::move(palette), parent);
  panel->set_title(title);
  panel->set_axes(x, y);
  panel->set_empty_text(QObject::tr("Waiting for finished requests…"));
  panel->setFocusPolicy(Qt::ClickFocus);
  return panel;
}

}  // namespace

LiveCharts::LiveCharts(std::shared_ptr<widgets::LanePalette> palette, QWidget* parent)
    : QWidget(parent) {
  output_rate_ = make_panel(ChartKind::Line, tr("Aggregate output throughput"),
                            {tr("Time since start"), "s"}, {tr("Output"), "tok/s"}, palette, this);
  ttft_ = make_panel(ChartKind::Scatter, tr("TTFT per request"), {tr("Sent at"), "s"},
                     {tr("TTFT"), "ms"}, palette, this);
  itl_ = make_panel(ChartKind::Histogram, tr("Inter-token latency distribution"),
                    {tr("ITL per event"), "ms"}, {tr("Share of events"), "%"}, palette, this);
  itl_->set_histogram_spec({widgets::HistogramSpec::Mode::Linear, 10, 0.98});
  tokens_per_event_ = make_panel(ChartKind::Histogram, tr("Tokens per event (MTP signature)"),
                                 {tr("Tokens in one streamed event"), ""},
                                 {tr("Share of events"), "%"}, palette, this);
  tokens_per_event_->set_histogram_spec({widgets::HistogramSpec::Mode::Integer, 5, 1.0});
  decode_ctx_ =
      make_panel(ChartKind::Line, tr("Decode rate vs context length"),
                 {tr("Prompt length"), "tokens"}, {tr("Decode rate"), "tok/s"}, palette, this);
  ttft_ctx_ = make_panel(ChartKind::Line, tr("TTFT vs context length"),
                         {tr("Prompt length"), "tokens"}, {tr("TTFT"), "s"}, palette, this);
  grid_ = new QGridLayout(this);
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setSpacing(6);
  grid_->addWidget(output_rate_, 0, 0);
  grid_->addWidget(ttft_, 0, 1);
  grid_->addWidget(itl_, 1, 0);
  grid_->addWidget(tokens_per_event_, 1, 1);
  grid_->addWidget(decode_ctx_, 2, 0);
  grid_->addWidget(ttft_ctx_, 2, 1);
  show_context_charts(false);
}

void LiveCharts::show_context_charts(bool on) {
  decode_ctx_->setVisible(on);
  ttft_ctx_->setVisible(on);
}

std::vector<ChartPanel*> LiveCharts::panels() const {
  return {output_rate_, ttft_, itl_, tokens_per_event_, decode_ctx_, ttft_ctx_};
}

ChartPanel* LiveCharts::current_panel() const {
  for (ChartPanel* panel : panels()) {
    if (!panel->isVisible()) continue;
    if (panel->isAncestorOf(QApplication::focusWidget()) || panel->hasFocus()) return panel;
    if (panel->rect().contains(panel->mapFromGlobal(QCursor::pos()))) return panel;
  }
  return output_rate_;
}

void LiveCharts::clear() {
  for (ChartPanel* panel : panels()) panel->clear();
  show_context_charts(false);
}

void LiveCharts::update_from(const LiveRunData& data, const std::set<QString>& changed,
                             double now_s) {
  // The rate chart's newest bucket closes with time, not with requests: refresh every lane.
  for (const QString& lane : data.lanes()) {
    const auto rate = data.output_rate_over_time(lane, now_s);
    if (!rate.empty()) output_rate_->set_series(lane, rate);
  }
  for (const QString& lane : changed) {
    ttft_->set_series(lane, data.ttft_over_time(lane));
    itl_->set_samples(lane, data.itl_ms(lane));
    if (!data.tokens_per_event(lane).empty())
      tokens_per_event_->set_samples(lane, data.tokens_per_event(lane));
    if (!data.ttft_vs_context(lane).empty()) {
      decode_ctx_->set_series(lane, data.decode_vs_context(lane));
      ttft_ctx_->set_series(lane, data.ttft_vs_context(lane));
    }
  }
  if (data.has_context_points() && !decode_ctx_->isVisible()) show_context_charts(true);
}

}  // namespace lb::ui
