// The Qt Charts implementation of ChartBackend. No other file includes a Qt Charts header.
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QHash>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QScatterSeries>
#include <QValueAxis>

#include "widgets/chart/chart_backend.h"

namespace lb::widgets {
namespace {

QFont font_of(int point_size, bool bold = false) {
  QFont f;
  f.setPointSize(point_size);
  f.setBold(bold);
  return f;
}

// As many decimals as the tick spacing needs ("400", "2.5", "0.25"), never "400.0".
QString label_format(const QValueAxis* axis) {
  const double step = (axis->max() - axis->min()) / std::max(1, axis->tickCount() - 1);
  if (step >= 1 || step <= 0) return QStringLiteral("%.0f");
  return step >= 0.1 ? QStringLiteral("%.1f") : QStringLiteral("%.2f");
}

// Sets AXIS to the nice-number range around [LO, HI] and its label format, touching it only where
// they change: each change of a Qt Charts axis lays out every label again (rich text), and a live
// chart asks for a range on every drain while the nice range moves seldom.
void apply_nice_range(QValueAxis* axis, double lo, double hi) {
  QValueAxis nice;  // in no chart: nothing to lay out
  nice.setTickCount(axis->tickCount());
  nice.setRange(lo, hi);
  nice.applyNiceNumbers();
  if (axis->min() != nice.min() || axis->max() != nice.max())
    axis->setRange(nice.min(), nice.max());
  if (axis->tickCount() != nice.tickCount()) axis->setTickCount(nice.tickCount());
  const QString format = label_format(axis);
  if (axis->labelFormat() != format) axis->setLabelFormat(format);
}

class QtChartsBackend final : public ChartBackend {
 public:
  static constexpr int kMarkedPointsMax = 24;
  QtChartsBackend(ChartKind kind, QWidget* parent) : kind_(kind) {
    chart_ = new QChart();                             // owned by the view
    chart_->setAnimationOptions(QChart::NoAnimation);  // live data: animations only lag
    chart_->setTitleFont(font_of(11, true));
    chart_->legend()->setAlignment(Qt::AlignBottom);
    chart_->legend()->setFont(font_of(9));
    chart_->setMargins(QMargins(6, 6, 6, 6));
    chart_->layout()->setContentsMargins(0, 0, 0, 0);
    chart_->setBackgroundRoundness(0);
    view_ = new QChartView(chart_, parent);
    view_->setRenderHint(QPainter::Antialiasing);
    view_->setMinimumSize(260, 200);
    empty_ = new QGraphicsSimpleTextItem(chart_);
    empty_->setBrush(QColor(0x80, 0x80, 0x80));
    empty_->setFont(font_of(10));
    if (kind_ == ChartKind::Histogram) {
      bars_ = new QBarSeries();
      bars_->setBarWidth(0.85);
      chart_->addSeries(bars_);
      cat_axis_ = new QBarCategoryAxis();
      // Qt cuts a label to its own bin's width ("1…" for 100 in a narrow bin); the labels kept
      // have blank neighbours (thinned_labels), so they are drawn whole.
      cat_axis_->setTruncateLabels(false);
      y_axis_ = new QValueAxis();
      chart_->addAxis(cat_axis_, Qt::AlignBottom);
      chart_->addAxis(y_axis_, Qt::AlignLeft);
      bars_->attachAxis(cat_axis_);
      bars_->attachAxis(y_axis_);
      set_categories({});
    } else {
      x_axis_ = new QValueAxis();
      y_axis_ = new QValueAxis();
      chart_->addAxis(x_axis_, Qt::AlignBottom);
      chart_->addAxis(y_axis_, Qt::AlignLeft);
    }
    for (QAbstractAxis* axis : chart_->axes()) {
      axis->setTitleFont(font_of(9));
      axis->setLabelsFont(font_of(8));
    }
    QObject::connect(chart_, &QChart::plotAreaChanged, view_, [this] { place_empty_text(); });
  }

  QWidget* widget() override { return view_; }
  void set_title(const QString& title) override { chart_->setTitle(title); }

  void set_axes(const AxisSpec& x, const AxisSpec& y) override {
    if (x_axis_) x_axis_->setTitleText(x.label());
    if (cat_axis_) cat_axis_->setTitleText(x.label());
    y_axis_->setTitleText(y.label());
  }

  void replace_points(const QString& name, const QColor& color,
                      const QList<QPointF>& points) override {
    QXYSeries* series = series_.value(name);
    if (!series) series = add_series(name, color);
    // A few measured points (levels, turns, probes) are marked, so a lone one is seen at all; on
    // a dense curve markers would only hide it.
    if (kind_ == ChartKind::Line) series->setPointsVisible(points.size() <= kMarkedPointsMax);
    series->replace(points);
    update_empty(points.isEmpty() && all_empty());
  }

  void set_dashed(const QString& name, bool dashed) override {
    auto* line = qobject_cast<QLineSeries*>(series_.value(name));
    if (!line) return;
    QPen pen = line->pen();
    pen.setStyle(dashed ? Qt::DashLine : Qt::SolidLine);
    line->setPen(pen);
  }

  void replace_band(const QString& name, const QColor& color, const QList<QPointF>& lower,
                    const QList<QPointF>& upper) override {
    if (!x_axis_) return;
    QAreaSeries* band = bands_.value(name);
    if (lower.isEmpty() || upper.isEmpty()) {
      if (band) {
        chart_->removeSeries(band);
        delete band;
        bands_.remove(name);
      }
      return;
    }
    if (!band) {
      // QAreaSeries does not own its edge series: the band is their parent, so they go with it.
      band = new QAreaSeries();
      band->setUpperSeries(new QLineSeries(band));
      band->setLowerSeries(new QLineSeries(band));
      band->setName(name);
      QColor fill = color;
      fill.setAlphaF(0.18);
      band->setBrush(fill);
      band->setPen(Qt::NoPen);
      chart_->addSeries(band);
      band->attachAxis(x_axis_);
      band->attachAxis(y_axis_);
      for (QLegendMarker* marker : chart_->legend()->markers(band)) marker->setVisible(false);
      bands_.insert(name, band);
    }
    band->lowerSeries()->replace(lower);
    band->upperSeries()->replace(upper);
  }

  void replace_marks(const QString& name, const QColor& color, const QList<QPointF>& points,
                     MarkShape shape) override {
    if (!x_axis_) return;
    QXYSeries* series = series_.value(name);
    if (!series) {
      if (shape == MarkShape::DashedLine) {
        auto* line = new QLineSeries();
        QPen pen(color);
        pen.setWidthF(1.5);
        pen.setStyle(Qt::DashLine);
        line->setPen(pen);
        series = line;
      } else {
        auto* scatter = new QScatterSeries();
        scatter->setMarkerShape(shape == MarkShape::Dot
                                    ? QScatterSeries::MarkerShapeCircle
                                    : QScatterSeries::MarkerShapeRotatedRectangle);
        scatter->setMarkerSize(11);
        scatter->setPen(QPen(Qt::white, 1.0));
        series = scatter;
      }
      series->setName(name);
      series->setColor(color);
      chart_->addSeries(series);
      series->attachAxis(x_axis_);
      series->attachAxis(y_axis_);
      series_.insert(name, series);
    }
    series->replace(points);
    update_empty(points.isEmpty() && all_empty());
  }

  void set_range(const AxisRange& r) override {
    if (x_axis_) apply_nice_range(x_axis_, r.x_min, r.x_max);
    apply_nice_range(y_axis_, r.y_min, r.y_max);
  }

  // The same sets and bins as last time (a live histogram redrawn): new values into the sets
  // there are. Qt Charts keeps part of each set's bar items for good when sets are cleared and
  // appended, so a redraw every drain would grow without bound.
  bool same_shape(const BarData& data) const {
    const QList<QBarSet*> sets = bars_->barSets();
    if (sets.size() != static_cast<qsizetype>(data.sets.size()) || data.sets.empty() ||
        categories_ != data.categories)
      return false;
    for (size_t i = 0; i < data.sets.size(); ++i)
      if (sets[static_cast<qsizetype>(i)]->count() !=
          static_cast<qsizetype>(data.sets[i].values.size()))
        return false;
    return true;
  }

  void set_bars(const BarData& data, const QList<QColor>& colors) override {
    const bool reuse = same_shape(data);
    if (!reuse) {
      bars_->clear();
      set_categories(data.categories);
      categories_ = data.categories;
    }
    double max_value = 0;
    for (size_t i = 0; i < data.sets.size(); ++i) {
      QBarSet* set =
          reuse ? bars_->barSets()[static_cast<qsizetype>(i)] : new QBarSet(data.sets[i].name);
      const QColor color =
          i < static_cast<size_t>(colors.size()) ? colors[static_cast<int>(i)] : QColor(Qt::gray);
      if (set->label() != data.sets[i].name) set->setLabel(data.sets[i].name);
      if (set->color() != color) set->setColor(color);
      if (set->borderColor() != color) set->setBorderColor(color);
      const std::vector<double>& values = data.sets[i].values;
      for (double v : values) max_value = std::max(max_value, v);
      if (!reuse) {
        set->append(QList<qreal>(values.begin(), values.end()));
        bars_->append(set);
        continue;
      }
      for (size_t k = 0; k < values.size(); ++k)
        if (set->at(static_cast<qsizetype>(k)) != values[k])
          set->replace(static_cast<qsizetype>(k), values[k]);
    }
    // Shares of samples: never past 100 %, which nice-number rounding would overshoot to 150.
    // Near the top the scale is the whole 0-100 %, so its ticks stay round (not 0, 20, 39, ...).
    const double top = std::max(5.0, max_value * 1.1);
    if (top < 90) {
      apply_nice_range(y_axis_, 0, top);
    } else {
      if (y_axis_->min() != 0 || y_axis_->max() != 100) y_axis_->setRange(0, 100);
      if (y_axis_->tickCount() != 6) y_axis_->setTickCount(6);
      if (y_axis_->labelFormat() != label_format(y_axis_))
        y_axis_->setLabelFormat(label_format(y_axis_));
    }
    update_empty(data.sets.empty());
  }

  void remove_series(const QString& name) override {
    QXYSeries* series = series_.take(name);
    if (!series) return;
    chart_->removeSeries(series);
    delete series;
    update_empty(all_empty());
  }

  void remove_all() override {
    if (bars_) {
      bars_->clear();
      set_categories({});
      categories_.clear();
    }
    for (QXYSeries* s : std::as_const(series_)) {
      chart_->removeSeries(s);
      delete s;
    }
    series_.clear();
    for (QAreaSeries* b : std::as_const(bands_)) {
      chart_->removeSeries(b);
      delete b;
    }
    bands_.clear();
    update_empty(true);
  }

  void set_empty_text(const QString& text) override {
    empty_->setText(text);
    place_empty_text();
  }

  int plot_width_px() const override { return static_cast<int>(chart_->plotArea().width()); }

  void render(QPainter* painter, const QRectF& target, const QSizeF& logical_size) override {
    const QSizeF old_size = chart_->size();
    const bool resize = logical_size != old_size;
    if (resize) {
      chart_->resize(logical_size);
      chart_->layout()->activate();
    }
    const bool empty_visible = empty_->isVisible();
    empty_->setVisible(false);  // a hint for the screen, not for a report
    chart_->scene()->render(painter, target, QRectF(chart_->pos(), logical_size));
    empty_->setVisible(empty_visible);
    if (resize) {
      chart_->resize(old_size);
      chart_->layout()->activate();
    }
  }

 private:
  // A category axis without categories lays its title out at the chart's top-left, over the
  // chart title; one blank category keeps the axis (and its title) where it belongs.
  void set_categories(const QStringList& categories) {
    cat_axis_->clear();
    cat_axis_->append(categories.isEmpty() ? QStringList{QStringLiteral(" ")}
                                           : thinned_labels(categories));
    if (categories.isEmpty()) {  // shares: a full scale until there is data
      y_axis_->setRange(0, 100);
      y_axis_->setLabelFormat(QStringLiteral("%.0f"));
    }
  }

  // More bins than labels fit in a quarter of the window: every k-th bin keeps its label (the
  // last, "≥x", always), with room to be drawn whole. The others get distinct invisible labels,
  // as the axis takes each category once.
  static QStringList thinned_labels(const QStringList& categories) {
    constexpr qsizetype kMaxLabels = 11;
    const qsizetype n = categories.size();
    if (n <= kMaxLabels) return categories;
    const qsizetype step = (n + kMaxLabels - 1) / kMaxLabels;
    QStringList out;
    for (qsizetype i = 0; i < n; ++i)
      out << ((i % step == 0 && n - 1 - i >= step) || i == n - 1
                  ? categories[i]
                  : QString(static_cast<int>(i + 1), QChar(0x200B)));
    return out;
  }

  QXYSeries* add_series(const QString& name, const QColor& color) {
    QXYSeries* series = nullptr;
    if (kind_ == ChartKind::Scatter) {
      auto* scatter = new QScatterSeries();
      // Filled markers without an outline: stroking each antialiased circle doubled the cost of
      // painting a scatter of a few hundred points per lane.
      scatter->setMarkerSize(7);
      scatter->setPen(Qt::NoPen);
      series = scatter;
    } else {
      auto* line = new QLineSeries();
      QPen pen(color);
      pen.setWidthF(2.0);
      line->setPen(pen);
      series = line;
    }
    series->setName(name);
    series->setColor(color);
    chart_->addSeries(series);
    series->attachAxis(x_axis_);
    series->attachAxis(y_axis_);
    series_.insert(name, series);
    return series;
  }

  bool all_empty() const {
    for (QXYSeries* s : series_)
      if (s->count() > 0) return false;
    return true;
  }

  void update_empty(bool empty) { empty_->setVisible(empty && !empty_->text().isEmpty()); }

  void place_empty_text() {
    const QRectF area = chart_->plotArea();
    const QRectF text = empty_->boundingRect();
    empty_->setPos(area.center() - QPointF(text.width() / 2, text.height() / 2));
  }

  ChartKind kind_;
  QChart* chart_ = nullptr;
  QChartView* view_ = nullptr;
  QValueAxis* x_axis_ = nullptr;
  QValueAxis* y_axis_ = nullptr;
  QBarCategoryAxis* cat_axis_ = nullptr;
  QBarSeries* bars_ = nullptr;
  QStringList categories_;  // the bins the sets were made for
  QGraphicsSimpleTextItem* empty_ = nullptr;
  QHash<QString, QXYSeries*> series_;
  QHash<QString, QAreaSeries*> bands_;
};

}  // namespace

std::unique_ptr<ChartBackend> make_chart_backend(ChartKind kind, QWidget* parent) {
  return std::make_unique<QtChartsBackend>(kind, parent);
}

}  // namespace lb::widgets
