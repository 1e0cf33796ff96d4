#pragma once
// What ChartPanel needs from a drawing library. The only implementation today is Qt Charts
// (qtcharts/); a Qt Graphs backend replaces that folder and make_chart_backend().
#include <QColor>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <memory>

#include "widgets/chart/chart_types.h"

class QPainter;
class QWidget;

namespace lb::widgets {

struct AxisRange {
  double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
};

class ChartBackend {
 public:
  virtual ~ChartBackend() = default;
  virtual QWidget* widget() = 0;
  virtual void set_title(const QString& title) = 0;
  virtual void set_axes(const AxisSpec& x, const AxisSpec& y) = 0;
  // Replaces every point of the named series in one call (creates it on first use).
  virtual void replace_points(const QString& name, const QColor& color,
                              const QList<QPointF>& points) = 0;
  virtual void set_range(const AxisRange& range) = 0;
  // Draws the named line series dashed (a reference: another run's figures); no-op for scatter.
  virtual void set_dashed(const QString& name, bool dashed) = 0;
  // A translucent band between LOWER and UPPER (same x, in order) in the colour, named NAME and
  // left out of the legend; replaces an earlier band of that name; empty lists remove it.
  virtual void replace_band(const QString& name, const QColor& color, const QList<QPointF>& lower,
                            const QList<QPointF>& upper) = 0;
  // A series in a fixed colour drawn as a dashed line or as large markers on any x/y chart,
  // above the series before it; replaces an earlier one of that name (created on first use).
  virtual void replace_marks(const QString& name, const QColor& color, const QList<QPointF>& points,
                             MarkShape shape) = 0;
  virtual void set_bars(const BarData& bars, const QList<QColor>& colors) = 0;
  // Removes the named series (points or marks); no-op for a name it does not draw.
  virtual void remove_series(const QString& name) = 0;
  virtual void remove_all() = 0;
  virtual void set_empty_text(const QString& text) = 0;  // shown while there is no data
  // Width of the plot area in device-independent pixels (for downsampling).
  virtual int plot_width_px() const = 0;
  // Draws the whole chart (title, axes, legend) into `target` at the given logical size.
  virtual void render(QPainter* painter, const QRectF& target, const QSizeF& logical_size) = 0;
};

std::unique_ptr<ChartBackend> make_chart_backend(ChartKind kind, QWidget* parent);

}  // namespace lb::widgets
