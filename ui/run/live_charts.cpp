#include "ui/run/live_charts.h"

#include <QApplication>
#include <QCheckBox>
#include <QCursor>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "core/metrics/pareto.h"
#include "ui/history/stored_run_series.h"
#include "ui/run/chart_catalog.h"
#include "ui/run/gate_scores.h"
#include "ui/run/live_run_data.h"
#include "widgets/chart/chart_panel.h"

namespace lb::ui {

using widgets::ChartPanel;
using Measure = LiveRunData::PhaseMeasure;

LiveCharts::LiveCharts(std::shared_ptr<widgets::LanePalette> palette, QWidget* parent)
    : QWidget(parent), traffic_(palette, tr("Waiting for finished requests…"), this) {
  const QString empty = tr("Waiting for finished requests…");
  output_rate_ = make_run_chart(RunChart::OutputRate, palette, empty, this);
  ttft_ = make_run_chart(RunChart::TtftPerRequest, palette, empty, this);
  ttft_title_ = ttft_->title();
  output_rate_title_ = output_rate_->title();
  itl_ = make_run_chart(RunChart::Itl, palette, empty, this);
  tokens_per_event_ = make_run_chart(RunChart::TokensPerEvent, palette, empty, this);
  decode_ctx_ = make_run_chart(RunChart::DecodeVsContext, palette, empty, this);
  ttft_ctx_ = make_run_chart(RunChart::TtftVsContext, palette, empty, this);
  ttft_pass_ = make_run_chart(RunChart::TtftPerPass, palette, empty, this);
  decode_conc_ = make_run_chart(RunChart::DecodeVsConcurrency, palette, empty, this);
  output_conc_ = make_run_chart(RunChart::OutputVsConcurrency, palette, empty, this);
  pareto_ = make_run_chart(RunChart::Pareto, palette, empty, this);
  gate_model_ = new QStandardItemModel(this);
  gate_view_ = new QTableView(this);
  gate_view_->setModel(gate_model_);
  gate_view_->setAccessibleName(tr("Gate scores"));
  gate_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  lane_time_ = make_lane_time_box(this);
  connect(lane_time_, &QCheckBox::toggled, this, [this] {
    name_time_axes();
    apply_overlay();
    if (!data_) return;
    const QStringList lanes = data_->lanes();
    update_from(*data_, {lanes.begin(), lanes.end()}, now_s_);
  });
  overlay_button_ = new QPushButton(tr("Overlay a Run…"), this);
  overlay_button_->setToolTip(
      tr("Draw another run's output rate and context curves dashed beside this run's, named "
         "RUN:lane"));
  connect(overlay_button_, &QPushButton::clicked, this, [this] {
    if (overlay_)
      clear_overlay();
    else
      emit overlay_requested();
  });
  auto* bar = new QHBoxLayout;
  bar->addStretch();
  bar->addWidget(overlay_button_);
  bar->addWidget(lane_time_);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->setSpacing(2);
  outer->addLayout(bar);
  grid_ = new QGridLayout;
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setSpacing(6);
  outer->addLayout(grid_, 1);
  name_time_axes();
  set_kind("regression");
}

double LiveCharts::lane_start_s(const LiveRunData& data, const QString& lane) const {
  return lane_time() ? data.lane_start_s(lane) : 0.0;
}

void LiveCharts::set_lane_time(bool on) { lane_time_->setChecked(on); }

bool LiveCharts::lane_time() const { return lane_time_->isChecked(); }

void LiveCharts::name_time_axes() {
  ui::name_time_axes(output_rate_, ttft_, lane_time());
  traffic_.name_time_axis(lane_time());
}

QString LiveCharts::kind() const {
  return kind_ ? QString::fromLatin1(record::to_string(*kind_)) : QString();
}

void LiveCharts::set_kind(const QString& kind) {
  kind_ = record::experiment_kind_from(kind.toStdString());
  std::vector<QWidget*> shown = {output_rate_, ttft_, itl_, tokens_per_event_};
  if (kind_) switch (*kind_) {
      case record::ExperimentKind::ContextSweep:
        shown = {decode_ctx_, ttft_ctx_, output_rate_, ttft_};
        break;
      case record::ExperimentKind::PrefixCache:
        shown = {ttft_pass_, output_rate_, ttft_, itl_};
        break;
      case record::ExperimentKind::Speculative:
        shown = {decode_conc_, tokens_per_event_, itl_, output_rate_};
        break;
      case record::ExperimentKind::Throughput:
        shown = {output_conc_, decode_conc_, pareto_, output_rate_, ttft_, itl_};
        break;
      case record::ExperimentKind::Trace:
        shown = {trace_lateness(), output_rate_, ttft_, pareto_};
        break;
      case record::ExperimentKind::Sessions:
        shown = {ttft_by_turn(), ttft_, output_rate_, itl_};
        break;
      case record::ExperimentKind::Capacity:
        shown = {capacity_probes(), capacity_ttft(), capacity_tpot(), pareto_};
        break;
      case record::ExperimentKind::Gates:
        shown = {gate_view_};
        break;
      case record::ExperimentKind::Regression:
      case record::ExperimentKind::SampledRegression:
      case record::ExperimentKind::Determinism:
        break;
    }
  relayout(shown);
}

void LiveCharts::relayout(const std::vector<QWidget*>& shown) {
  const std::vector<ChartPanel*> charts = panels();
  std::vector<QWidget*> all(charts.begin(), charts.end());
  all.push_back(gate_view_);
  for (QWidget* w : all) {
    grid_->removeWidget(w);
    w->hide();
  }
  const int columns = shown.size() == 1 ? 1 : 2;
  for (size_t i = 0; i < shown.size(); ++i) {
    grid_->addWidget(shown[i], static_cast<int>(i) / columns, static_cast<int>(i) % columns);
    shown[i]->show();
  }
}

std::vector<ChartPanel*> LiveCharts::panels() const {
  std::vector<ChartPanel*> out = {output_rate_, ttft_,     itl_,       tokens_per_event_,
                                  decode_ctx_,  ttft_ctx_, ttft_pass_, decode_conc_,
                                  output_conc_, pareto_};
  for (ChartPanel* panel : traffic_.panels()) out.push_back(panel);
  return out;
}

std::vector<ChartPanel*> LiveCharts::shown_panels() const {
  std::vector<ChartPanel*> out;
  for (ChartPanel* panel : panels())
    if (!panel->isHidden()) out.push_back(panel);
  return out;
}

ChartPanel* LiveCharts::current_panel() const {
  const std::vector<ChartPanel*> shown = shown_panels();
  for (ChartPanel* panel : shown) {
    if (panel->isAncestorOf(QApplication::focusWidget()) || panel->hasFocus()) return panel;
    if (panel->rect().contains(panel->mapFromGlobal(QCursor::pos()))) return panel;
  }
  return shown.empty() ? output_rate_ : shown.front();
}

void LiveCharts::clear() {
  data_ = nullptr;
  for (ChartPanel* panel : panels()) panel->clear();
  ttft_->set_title(ttft_title_);
  steady_.clear();
  output_rate_->set_title(output_rate_title_);
  gate_model_->clear();
  apply_overlay();
}

void LiveCharts::set_overlay(const QString& run_name,
                             std::shared_ptr<const StoredRunSeries> series) {
  clear_overlay();
  overlay_run_ = run_name;
  overlay_ = std::move(series);
  overlay_button_->setText(tr("Remove Overlay (%1)").arg(run_name));
  apply_overlay();
}

void LiveCharts::clear_overlay() {
  if (!overlay_) return;
  overlay_.reset();
  overlay_run_.clear();
  overlay_button_->setText(tr("Overlay a Run…"));
  for (ChartPanel* panel : panels()) {
    if (panel->kind() == widgets::ChartKind::Histogram) continue;
    // Dropping a reference redraws the panel from its own lanes.
    std::vector<std::pair<QString, std::vector<QPointF>>> own;
    for (const QString& lane : panel->lanes())
      if (!panel->is_reference(lane)) own.emplace_back(lane, panel->series(lane));
    panel->clear();
    for (auto& [lane, points] : own) panel->set_series(lane, std::move(points));
  }
}

void LiveCharts::apply_overlay() {
  if (!overlay_) return;
  for (const QString& lane : overlay_->lanes) {
    const auto it = overlay_->by_lane.find(lane);
    if (it == overlay_->by_lane.end()) continue;
    const StoredLaneSeries& s = it->second;
    const QString name = overlay_run_ + ":" + lane;
    if (!s.output_tok_s.empty())
      output_rate_->set_reference_series(
          name, since_lane_start(s.output_tok_s, lane_time() ? s.start_s : 0.0), lane);
    if (!s.decode_vs_context.empty())
      decode_ctx_->set_reference_series(name, s.decode_vs_context, lane);
    if (!s.ttft_vs_context.empty()) ttft_ctx_->set_reference_series(name, s.ttft_vs_context, lane);
  }
}

QString LiveCharts::frontier_name() { return tr("Pareto frontier"); }

// Each lane's levels as (total output, per-user decode), and the frontier of every lane's levels
// so far, dashed: it moves while a level's requests finish.
void LiveCharts::update_pareto(const LiveRunData& data) {
  std::vector<metrics::ParetoPoint> all;
  for (const QString& lane : data.lanes()) {
    std::vector<QPointF> points = data.pareto_points(lane);
    for (const QPointF& p : points) all.push_back({p.x(), p.y()});
    if (!points.empty()) pareto_->set_series(lane, std::move(points));
  }
  std::vector<QPointF> frontier;
  for (const auto& p : metrics::frontier_points(all))
    frontier.emplace_back(p.total_tok_s, p.per_user_tok_s);
  if (!frontier.empty())
    pareto_->set_reference_series(frontier_name(), std::move(frontier), frontier_name());
}

void LiveCharts::set_gate_scores(const LiveGateScores& scores) {
  static const QHash<QString, QColor> kColors = {{"pass", QColor(0xd7, 0xf2, 0xdc)},
                                                 {"fail", QColor(0xf8, 0xd4, 0xd4)},
                                                 {"unsupported", QColor(0xee, 0xee, 0xee)}};
  gate_model_->clear();
  gate_model_->setHorizontalHeaderLabels(scores.lanes());
  for (const GateScoreRow& row : scores.rows()) {
    QList<QStandardItem*> items;
    for (const GateScoreCell& cell : row.cells) {
      auto* item = new QStandardItem(cell.text);
      item->setEditable(false);
      item->setTextAlignment(Qt::AlignCenter);
      if (kColors.contains(cell.status)) item->setBackground(kColors.value(cell.status));
      if (!cell.detail.isEmpty()) item->setToolTip(cell.detail);
      items << item;
    }
    gate_model_->appendRow(items);
    gate_model_->setVerticalHeaderItem(gate_model_->rowCount() - 1, new QStandardItem(row.gate));
  }
}

void LiveCharts::set_steady_windows(const record::ExperimentSection& section,
                                    const LiveRunData& data) {
  steady_ = steady_windows(section, [&data](const QString& lane, const std::string& phase) {
    return data.phase_start_s(lane, phase);
  });
  apply_steady_windows(data);
  output_rate_->set_title(output_rate_title(output_rate_title_, !steady_.empty()));
}

void LiveCharts::apply_steady_windows(const LiveRunData& data) {
  for (const auto& [lane, windows] : steady_)
    output_rate_->set_spans(lane, since_lane_start(windows, lane_start_s(data, lane)));
}

void LiveCharts::update_from(const LiveRunData& data, const std::set<QString>& changed,
                             double now_s) {
  data_ = &data;
  now_s_ = now_s;
  if (!steady_.empty()) apply_steady_windows(data);
  // The rate chart's newest bucket closes with time, not with requests: refresh every lane.
  for (const QString& lane : data.lanes()) {
    auto rate = data.output_rate_over_time(lane, now_s);
    if (!rate.empty())
      output_rate_->set_series(lane, since_lane_start(std::move(rate), lane_start_s(data, lane)));
  }
  // Only the series of changed lanes are rebuilt; the kind's own charts only for its kind.
  for (const QString& lane : changed) {
    ttft_->set_series(lane, since_lane_start(data.ttft_over_time(lane), lane_start_s(data, lane)));
    itl_->set_samples(lane, data.itl_sample_ms(lane));
    if (!data.tokens_per_event_sample(lane).empty())
      tokens_per_event_->set_samples(lane, data.tokens_per_event_sample(lane));
    if (is(record::ExperimentKind::ContextSweep) && !data.ttft_vs_context(lane).empty()) {
      decode_ctx_->set_series(lane, data.decode_vs_context(lane));
      ttft_ctx_->set_series(lane, data.ttft_vs_context(lane));
    }
    if (is(record::ExperimentKind::PrefixCache))
      ttft_pass_->set_series(lane, data.ttft_per_pass(lane));
    if (is(record::ExperimentKind::Speculative) || is(record::ExperimentKind::Throughput)) {
      const auto decode = data.phase_series(lane, Measure::DecodeP50TokS);
      if (!decode.empty()) {
        decode_conc_->set_series(lane, decode);
        decode_conc_->set_intervals(lane, data.phase_intervals(lane, Measure::DecodeP50TokS));
      }
      const auto output = data.phase_series(lane, Measure::OutputTokS);
      if (!output.empty()) output_conc_->set_series(lane, output);
    }
  }
  if ((kind_ && record::measures_load(*kind_)) && !changed.empty()) update_pareto(data);
  if (!changed.empty()) update_traffic(data, changed);
  // A long run's scatter keeps every n-th request (LiveRunData::ttft_over_time); the title says so.
  int64_t ttft_stride = 1;
  for (const QString& lane : data.lanes())
    ttft_stride = std::max(ttft_stride, data.ttft_stride(lane));
  if (ttft_stride > 1)
    ttft_->set_title(tr("%1 (1 in %2 requests shown)").arg(ttft_title_).arg(ttft_stride));
}

// The traffic kinds' own charts, from the fold both they and a reopened run's use
// (TrafficSeries), drawn by TrafficCharts as a reopened run's are.
void LiveCharts::update_traffic(const LiveRunData& data, const std::set<QString>& changed) {
  if (is(record::ExperimentKind::Trace))
    for (const QString& lane : changed)
      traffic_.set_lateness(lane, since_lane_start(data.traffic(lane).lateness(data.t0_ns()),
                                                   lane_start_s(data, lane)));
  if (is(record::ExperimentKind::Sessions))
    for (const QString& lane : changed)
      traffic_.set_ttft_by_turn(lane, data.traffic(lane).ttft_by_turn());
  if (!is(record::ExperimentKind::Capacity)) return;
  LaneProbes probes;
  for (const QString& lane : data.lanes()) probes.emplace_back(lane, data.capacity_probes(lane));
  traffic_.set_capacity(probes);
}

}  // namespace lb::ui
