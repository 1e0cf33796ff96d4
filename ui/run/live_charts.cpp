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

#include "ui/history/stored_run_series.h"
#include "ui/run/chart_catalog.h"
#include "ui/run/gate_scores.h"
#include "ui/run/live_run_data.h"
#include "widgets/chart/chart_panel.h"

namespace lb::ui {

using widgets::ChartPanel;

LiveCharts::LiveCharts(std::shared_ptr<widgets::LanePalette> palette, QWidget* parent)
    : QWidget(parent), charts_(palette, tr("Waiting for finished requests…"), this) {
  gate_model_ = new QStandardItemModel(this);
  gate_view_ = new QTableView(this);
  gate_view_->setModel(gate_model_);
  gate_view_->setAccessibleName(tr("Gate scores"));
  gate_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  lane_time_ = make_lane_time_box(this);
  connect(lane_time_, &QCheckBox::toggled, this, [this] {
    charts_.name_time_axes(lane_time());
    apply_overlay();
    if (!data_) return redraw_kept();
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
  charts_.name_time_axes(lane_time());
  set_kind("regression");
}

double LiveCharts::lane_start_s(const LiveRunData& data, const QString& lane) const {
  return lane_time() ? data.lane_start_s(lane) : 0.0;
}

void LiveCharts::set_lane_time(bool on) { lane_time_->setChecked(on); }

bool LiveCharts::lane_time() const { return lane_time_->isChecked(); }

QString LiveCharts::kind() const {
  return kind_ ? QString::fromLatin1(record::to_string(*kind_)) : QString();
}

void LiveCharts::set_kind(const QString& kind) {
  kind_ = record::experiment_kind_from(kind.toStdString());
  std::vector<QWidget*> shown;
  for (RunChart chart : RunChartSet::charts_of(kind_)) shown.push_back(charts_.panel(chart));
  if (is(record::ExperimentKind::Gates)) shown = {gate_view_};
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

std::vector<ChartPanel*> LiveCharts::panels() const { return charts_.panels(); }

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
  return shown.empty() ? output_rate() : shown.front();
}

void LiveCharts::clear() {
  data_ = nullptr;
  kept_.clear();
  charts_.clear();
  steady_.clear();
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
  // Only the overlay's series go: the lanes' own, their intervals, spans and marks stay drawn.
  for (ChartPanel* panel : panels())
    for (const QString& name : panel->lanes())
      if (panel->is_reference(name)) panel->remove_series(name);
}

void LiveCharts::apply_overlay() {
  if (!overlay_) return;
  for (const QString& lane : overlay_->lanes) {
    const auto it = overlay_->by_lane.find(lane);
    if (it == overlay_->by_lane.end()) continue;
    const StoredLaneSeries& s = it->second;
    const QString name = overlay_run_ + ":" + lane;
    if (!s.output_tok_s.empty())
      output_rate()->set_reference_series(
          name, since_lane_start(s.output_tok_s, lane_time() ? s.start_s : 0.0), lane);
    if (!s.decode_vs_context.empty())
      decode_vs_context()->set_reference_series(name, s.decode_vs_context, lane);
    if (!s.ttft_vs_context.empty())
      ttft_vs_context()->set_reference_series(name, s.ttft_vs_context, lane);
  }
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
  steady_ = steady_windows(section, [&](const QString& lane, const std::string& phase) {
    return data.phase_start_s(lane, section.name, phase);
  });
  apply_steady_windows(lane_starts(data));
}

std::map<QString, double> LiveCharts::lane_starts(const LiveRunData& data) const {
  std::map<QString, double> start_s;
  for (const QString& lane : data.lanes()) start_s[lane] = lane_start_s(data, lane);
  return start_s;
}

void LiveCharts::apply_steady_windows(const std::map<QString, double>& start_s) {
  charts_.draw_steady_windows(steady_, start_s);
}

void LiveCharts::update_from(const LiveRunData& data, const std::set<QString>& changed,
                             double now_s) {
  data_ = &data;
  now_s_ = now_s;
  if (!steady_.empty()) apply_steady_windows(lane_starts(data));
  // The rate chart's newest bucket closes with time, not with requests: every lane's is redrawn;
  // the rest only for the lanes that changed.
  for (const QString& lane : data.lanes())
    if (!changed.count(lane))
      charts_.draw_output_rate(lane, data.output_rate_over_time(lane, now_s),
                               lane_start_s(data, lane));
  for (const QString& lane : changed)
    charts_.draw_lane(lane, data.series(lane, now_s), lane_start_s(data, lane));
  if (!changed.empty()) update_phases(data, changed);
  // A long run's scatter keeps every n-th request (LiveRunData::ttft_over_time); the title says so.
  int64_t ttft_stride = 1;
  for (const QString& lane : data.lanes())
    ttft_stride = std::max(ttft_stride, data.ttft_stride(lane));
  charts_.set_ttft_stride(ttft_stride);
}

void LiveCharts::keep_drawn(const LiveRunData& data) {
  if (&data != data_) return;  // these charts show another experiment's (or no) data
  kept_.clear();
  for (const QString& lane : data.lanes())
    kept_[lane] = {data.series(lane, now_s_), data.lane_start_s(lane)};
  data_ = nullptr;
  // The drain that ends an experiment may have brought its last requests with the next one's
  // start, before the charts were drawn from it: they are drawn now.
  redraw_kept();
}

void LiveCharts::redraw_kept() {
  std::map<QString, double> start_s;
  for (const auto& [lane, kept] : kept_) {
    start_s[lane] = lane_time() ? kept.start_s : 0.0;
    charts_.draw_lane(lane, kept.series, start_s[lane]);
  }
  if (!steady_.empty()) apply_steady_windows(start_s);
}

void LiveCharts::update_phases(const LiveRunData& data, const std::set<QString>& changed) {
  if (is(record::ExperimentKind::Speculative) || is(record::ExperimentKind::Throughput))
    for (const QString& lane : changed) charts_.draw_phases(lane, data.phase_points(lane));
  if (kind_ && record::measures_load(*kind_)) {
    RunChartSet::LanePhases lanes;
    for (const QString& lane : data.lanes()) lanes.emplace_back(lane, data.phase_points(lane));
    charts_.draw_pareto(lanes);
  }
  if (!is(record::ExperimentKind::Capacity)) return;
  LaneProbes probes;
  for (const QString& lane : data.lanes()) probes.emplace_back(lane, data.capacity_probes(lane));
  charts_.draw_capacity(probes);
}

}  // namespace lb::ui
