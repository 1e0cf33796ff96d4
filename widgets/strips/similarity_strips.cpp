#include "widgets/strips/similarity_strips.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace lb::widgets {
namespace {

constexpr double kStripLabelWidth = 130;
constexpr double kStripAxisHeight = 22;

double strip_quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * double(v.size() - 1);
  const auto lo = static_cast<size_t>(pos);
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - double(lo));
}

// A fixed vertical spread per dot, so equal ratios stay visible and a redraw does not move them.
double strip_jitter(int index) { return std::fmod(double(index) * 0.618033988749895, 1.0) - 0.5; }

}  // namespace

SimilarityStrips::SimilarityStrips(QWidget* parent) : QWidget(parent) {
  setMinimumHeight(90);
  setAccessibleName(tr("Similarity distributions"));
}

void SimilarityStrips::set_rows(std::vector<StripRow> rows) {
  rows_ = std::move(rows);
  double lo = 1.0;
  for (const auto& r : rows_)
    for (double v : r.values) lo = std::min(lo, v);
  // Round the axis down to a tenth, so nearly identical distributions still spread out.
  axis_min_ = std::clamp(std::floor(lo * 10 - 1e-9) / 10, 0.0, 0.9);
  sel_row_ = sel_index_ = -1;
  setMinimumHeight(
      static_cast<int>(kStripAxisHeight + 16 + 34 * std::max<size_t>(rows_.size(), 1)));
  update();
}

void SimilarityStrips::set_selected(int row, int index) {
  sel_row_ = row;
  sel_index_ = index;
  update();
}

QString SimilarityStrips::row_label(int row) const {
  const StripRow& r = rows_.at(static_cast<size_t>(row));
  return QString("%1 (%2)").arg(r.label).arg(r.values.size());
}

// Wide enough for the longest row label ("fp8-mtp3 vs bf16 (64)"), at most a third of the width.
double SimilarityStrips::label_width() const {
  const QFontMetricsF fm(font());
  double widest = kStripLabelWidth - 12;
  for (int r = 0; r < static_cast<int>(rows_.size()); ++r)
    widest = std::max(widest, fm.horizontalAdvance(row_label(r)));
  return std::min(widest + 12, std::max(kStripLabelWidth, width() / 3.0));
}

QRectF SimilarityStrips::plot_rect() const {
  const double labels = label_width();
  return QRectF(labels, 6, std::max(40.0, width() - labels - 12),
                std::max(20.0, height() - kStripAxisHeight - 8));
}

QRectF SimilarityStrips::row_rect(int row) const {
  const QRectF p = plot_rect();
  const double h = p.height() / double(std::max<size_t>(rows_.size(), 1));
  return QRectF(p.left(), p.top() + h * row, p.width(), h);
}

double SimilarityStrips::x_of(double ratio) const {
  const QRectF p = plot_rect();
  return p.left() + (ratio - axis_min_) / (1.0 - axis_min_) * p.width();
}

QPointF SimilarityStrips::dot_position(int row, int index) const {
  const QRectF r = row_rect(row);
  const double v = rows_.at(static_cast<size_t>(row)).values.at(static_cast<size_t>(index));
  return {x_of(v), r.center().y() + strip_jitter(index) * r.height() * 0.6};
}

void SimilarityStrips::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QRectF plot = plot_rect();
  p.setPen(palette().color(QPalette::Mid));
  for (int t = 0; t <= 10; ++t) {
    const double ratio = axis_min_ + (1.0 - axis_min_) * t / 10.0;
    const double x = x_of(ratio);
    p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
    if (t % 2 == 0)
      p.drawText(QRectF(x - 20, plot.bottom() + 4, 40, kStripAxisHeight - 4), Qt::AlignCenter,
                 QString::number(ratio, 'f', 2));
  }
  for (int r = 0; r < static_cast<int>(rows_.size()); ++r) {
    const StripRow& row = rows_[static_cast<size_t>(r)];
    const QRectF rect = row_rect(r);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRectF(4, rect.top(), plot.left() - 8, rect.height()),
               Qt::AlignVCenter | Qt::AlignLeft, row_label(r));
    if (row.values.empty()) continue;
    const double q1 = strip_quantile(row.values, 0.25), q3 = strip_quantile(row.values, 0.75);
    const double med = strip_quantile(row.values, 0.5);
    const QRectF box(x_of(q1), rect.top() + rect.height() * 0.15,
                     std::max(1.0, x_of(q3) - x_of(q1)), rect.height() * 0.7);
    QColor fill = row.color;
    fill.setAlpha(40);
    p.setPen(QPen(row.color, 1));
    p.setBrush(fill);
    p.drawRect(box);
    p.setPen(QPen(row.color, 2));
    p.drawLine(QPointF(x_of(med), box.top()), QPointF(x_of(med), box.bottom()));
    p.setPen(Qt::NoPen);
    p.setBrush(row.color);
    for (int i = 0; i < static_cast<int>(row.values.size()); ++i)
      p.drawEllipse(dot_position(r, i), 2.5, 2.5);
  }
  if (sel_row_ >= 0 && sel_row_ < static_cast<int>(rows_.size()) && sel_index_ >= 0 &&
      sel_index_ < static_cast<int>(rows_[static_cast<size_t>(sel_row_)].values.size())) {
    p.setPen(QPen(palette().color(QPalette::Highlight), 2));
    p.setBrush(Qt::NoBrush);
    p.drawEllipse(dot_position(sel_row_, sel_index_), 6, 6);
  }
}

void SimilarityStrips::mousePressEvent(QMouseEvent* event) {
  const QPointF at = event->position();
  int best_row = -1, best_index = -1;
  double best = 64;  // within 8 px
  for (int r = 0; r < static_cast<int>(rows_.size()); ++r) {
    if (!row_rect(r).adjusted(0, -4, 0, 4).contains(at)) continue;
    for (int i = 0; i < static_cast<int>(rows_[static_cast<size_t>(r)].values.size()); ++i) {
      const QPointF d = dot_position(r, i) - at;
      const double dist = d.x() * d.x() + d.y() * d.y();
      if (dist < best) {
        best = dist;
        best_row = r;
        best_index = i;
      }
    }
  }
  if (best_row < 0) return;
  set_selected(best_row, best_index);
  emit picked(best_row, best_index);
}

}  // namespace lb::widgets
