#include "widgets/chart/chart_panel.h"

#include <QContextMenuEvent>
#include <QDateTime>
#include <QElapsedTimer>
#include <QMenu>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "widgets/chart/chart_backend.h"
#include "widgets/chart/downsample.h"
#include "widgets/chart/histogram_bins.h"
#include "widgets/lane_palette.h"

namespace lb::widgets {
namespace {

qint64 now_ms() {
  static QElapsedTimer clock = [] {
    QElapsedTimer t;
    t.start();
    return t;
  }();
  return clock.elapsed();
}

AxisRange range_of(const std::map<QString, std::vector<QPointF>>& series,
                   const std::map<QString, std::vector<PointInterval>>& intervals, bool x_zero,
                   bool y_zero) {
  AxisRange r{1e300, -1e300, 1e300, -1e300};
  for (const auto& [name, list] : intervals)
    for (const PointInterval& i : list) {
      r.y_min = std::min(r.y_min, i.lo);
      r.y_max = std::max(r.y_max, i.hi);
    }
  for (const auto& [name, pts] : series) {
    for (const QPointF& p : pts) {
      r.x_min = std::min(r.x_min, p.x());
      r.x_max = std::max(r.x_max, p.x());
      r.y_min = std::min(r.y_min, p.y());
      r.y_max = std::max(r.y_max, p.y());
    }
  }
  if (r.x_min > r.x_max) return AxisRange{};
  if (x_zero) r.x_min = std::min(r.x_min, 0.0);
  if (y_zero) r.y_min = std::min(r.y_min, 0.0);
  // 5 % beyond the last point on both axes, so a point there (a single concurrency level, the
  // highest one) is drawn whole rather than cut by the plot's edge.
  r.x_max = r.x_max <= r.x_min ? r.x_min + 1 : r.x_max + (r.x_max - r.x_min) * 0.05;
  r.y_max = r.y_max <= r.y_min ? r.y_min + 1 : r.y_max + (r.y_max - r.y_min) * 0.05;
  return r;
}

}  // namespace

ChartPanel::ChartPanel(ChartKind kind, std::shared_ptr<LanePalette> palette, QWidget* parent)
    : QWidget(parent), kind_(kind), palette_(std::move(palette)) {
  if (!palette_) palette_ = std::make_shared<LanePalette>();
  backend_ = make_chart_backend(kind, this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(backend_->widget());
  timer_ = new QTimer(this);
  timer_->setSingleShot(true);
  connect(timer_, &QTimer::timeout, this, &ChartPanel::flush);
  setContextMenuPolicy(Qt::DefaultContextMenu);
  backend_->widget()->setContextMenuPolicy(Qt::NoContextMenu);  // handled here
  if (kind_ == ChartKind::Histogram) histogram_ = HistogramSpec{};
}

ChartPanel::~ChartPanel() = default;

void ChartPanel::set_title(const QString& title) {
  if (title == title_) return;  // a live chart is told its title at every drain
  title_ = title;
  backend_->set_title(title);
  setAccessibleName(title);
}

void ChartPanel::set_axes(const AxisSpec& x, const AxisSpec& y) {
  x_ = x;
  y_ = y;
  backend_->set_axes(x, y);
}

void ChartPanel::set_histogram_spec(const HistogramSpec& spec) {
  histogram_ = spec;
  dirty_ = true;
  schedule_flush();
}

void ChartPanel::set_empty_text(const QString& text) { backend_->set_empty_text(text); }

void ChartPanel::set_series(const QString& lane, std::vector<QPointF> points) {
  if (!order_.contains(lane)) order_ << lane;
  points_[lane] = std::move(points);
  dirty_ = true;
  schedule_flush();
}

void ChartPanel::set_reference_series(const QString& name, std::vector<QPointF> points,
                                      const QString& colour_of) {
  reference_[name] = colour_of;
  set_series(name, std::move(points));
}

void ChartPanel::remove_series(const QString& name) {
  const bool known = points_.erase(name) + marks_.erase(name) > 0;
  reference_.erase(name);
  drawn_.erase(name);
  order_.removeAll(name);
  if (!known) return;
  backend_->remove_series(name);
  dirty_ = true;  // the axes' range leaves it out
  schedule_flush();
}

std::vector<QPointF> ChartPanel::series(const QString& lane) const {
  const auto it = points_.find(lane);
  if (it != points_.end()) return it->second;
  const auto marks = marks_.find(lane);
  return marks == marks_.end() ? std::vector<QPointF>() : marks->second.points;
}

void ChartPanel::set_marks(const QString& name, std::vector<QPointF> points, const QColor& color,
                           MarkShape shape) {
  marks_[name] = Marks{std::move(points), color, shape};
  dirty_ = true;
  schedule_flush();
}

void ChartPanel::set_intervals(const QString& lane, std::vector<PointInterval> intervals) {
  intervals_[lane] = std::move(intervals);
  dirty_ = true;
  schedule_flush();
}

void ChartPanel::set_spans(const QString& lane, std::vector<XSpan> spans) {
  spans_[lane] = std::move(spans);
  dirty_ = true;
  schedule_flush();
}

std::vector<XSpan> ChartPanel::spans(const QString& lane) const {
  const auto it = spans_.find(lane);
  return it == spans_.end() ? std::vector<XSpan>() : it->second;
}

std::vector<PointInterval> ChartPanel::intervals(const QString& lane) const {
  const auto it = intervals_.find(lane);
  return it == intervals_.end() ? std::vector<PointInterval>() : it->second;
}

void ChartPanel::set_samples(const QString& lane, std::vector<double> samples) {
  if (!order_.contains(lane)) order_ << lane;
  samples_[lane] = std::move(samples);
  dirty_ = true;
  schedule_flush();
}

void ChartPanel::clear() {
  timer_->stop();
  points_.clear();
  marks_.clear();
  samples_.clear();
  intervals_.clear();
  spans_.clear();
  spans_drawn_.clear();
  drawn_.clear();
  order_.clear();
  reference_.clear();
  dirty_ = false;
  backend_->remove_all();
}

void ChartPanel::schedule_flush() {
  if (timer_->isActive()) return;  // the pending flush will pick this change up
  const qint64 since = now_ms() - last_flush_ms_;
  timer_->start(static_cast<int>(std::max<qint64>(0, kMinFlushIntervalMs - since)));
}

void ChartPanel::flush() {
  timer_->stop();
  if (!dirty_) return;
  dirty_ = false;
  last_flush_ms_ = now_ms();
  ++flush_count_;
  if (kind_ == ChartKind::Histogram)
    apply_histogram();
  else
    apply_xy();
}

void ChartPanel::apply_xy() {
  // Two points per pixel column of the plot area; before the first layout assume a typical width.
  int columns = backend_->plot_width_px();
  if (columns < 50) columns = 600;
  for (const QString& lane : std::as_const(order_)) {
    auto it = points_.find(lane);
    if (it == points_.end()) continue;
    const std::vector<QPointF> drawn =
        kind_ == ChartKind::Line                  ? downsample_min_max(it->second, columns)
        : it->second.size() > size_t(columns) * 4 ? downsample_min_max(it->second, columns * 2)
                                                  : it->second;
    const auto reference = reference_.find(lane);
    const bool dashed = reference != reference_.end();
    backend_->replace_points(lane, palette_->colorFor(dashed ? reference->second : lane),
                             QList<QPointF>(drawn.begin(), drawn.end()));
    if (dashed) backend_->set_dashed(lane, true);
    drawn_[lane] = static_cast<int>(drawn.size());
  }
  for (const auto& [lane, list] : intervals_) {
    QList<QPointF> lower, upper;
    for (const PointInterval& i : list) {
      lower << QPointF(i.x, i.lo);
      upper << QPointF(i.x, i.hi);
    }
    backend_->replace_band(lane + tr(" (95 % interval)"), palette_->colorFor(lane), lower, upper);
  }
  for (const auto& [lane, list] : spans_) {
    size_t& drawn = spans_drawn_[lane];
    for (size_t i = 0; i < std::max(drawn, list.size()); ++i) {
      const QString name = lane + QStringLiteral(" span %1").arg(i);
      if (i >= list.size()) {
        backend_->replace_band(name, {}, {}, {});  // removes it
        continue;
      }
      const XSpan& s = list[i];
      backend_->replace_band(name, palette_->colorFor(lane), {{s.x0, 0}, {s.x1, 0}},
                             {{s.x0, s.level}, {s.x1, s.level}});
    }
    drawn = list.size();
  }
  std::map<QString, std::vector<QPointF>> ranged = points_;
  for (const auto& [lane, list] : spans_) {  // a span's top is in view too
    std::vector<QPointF>& tops = ranged[lane + QStringLiteral("\nspans")];  // a key no lane has
    for (const XSpan& s : list) tops.insert(tops.end(), {{s.x0, s.level}, {s.x1, s.level}});
  }
  for (const auto& [name, marks] : marks_) {
    backend_->replace_marks(name, marks.color,
                            QList<QPointF>(marks.points.begin(), marks.points.end()), marks.shape);
    drawn_[name] = static_cast<int>(marks.points.size());
    ranged[name + QStringLiteral("\n")] = marks.points;  // a key no lane has
  }
  backend_->set_range(range_of(ranged, intervals_, x_.from_zero, y_.from_zero));
}

void ChartPanel::apply_histogram() {
  const BarData bars = bin_histogram(samples_, order_, histogram_);
  QList<QColor> colors;
  for (const BarData::Set& set : bars.sets) {
    colors << palette_->colorFor(set.name);
    drawn_[set.name] = static_cast<int>(set.values.size());
  }
  backend_->set_bars(bars, colors);
}

int ChartPanel::drawn_point_count(const QString& lane) const {
  auto it = drawn_.find(lane);
  return it == drawn_.end() ? -1 : it->second;
}

QStringList ChartPanel::lanes() const { return order_; }

void ChartPanel::contextMenuEvent(QContextMenuEvent* event) {
  QMenu menu(this);
  menu.addAction(tr("Export as PNG…"), this, [this] { export_with_dialog("png"); });
  menu.addAction(tr("Export as SVG…"), this, [this] { export_with_dialog("svg"); });
  menu.addAction(tr("Export as PDF…"), this, [this] { export_with_dialog("pdf"); });
  menu.addSeparator();
  menu.addAction(tr("Copy to Clipboard"), this, &ChartPanel::copy_to_clipboard);
  menu.exec(event->globalPos());
}

}  // namespace lb::widgets
