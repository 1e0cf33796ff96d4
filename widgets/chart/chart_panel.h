#pragma once
// A chart as the rest of the application sees it: a title, axis titles with units, a legend, one
// colour per lane from a shared LanePalette, data handed over as plain vectors. Updates are staged
// and applied together at most 30 times a second (one replace() per series, downsampled to about
// two points per pixel column), whatever rate the caller sets data at. No drawing-library type
// appears here: the backend lives in chart/qtcharts/.
#include <QColor>
#include <QPointF>
#include <QSize>
#include <QString>
#include <QWidget>
#include <map>
#include <memory>
#include <vector>

#include "widgets/chart/chart_types.h"

class QTimer;

namespace lb::widgets {

class ChartBackend;
class LanePalette;

class ChartPanel : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kMinFlushIntervalMs = 33;  // <= 30 Hz

  ChartPanel(ChartKind kind, std::shared_ptr<LanePalette> palette, QWidget* parent = nullptr);
  ~ChartPanel() override;

  void set_title(const QString& title);
  QString title() const { return title_; }
  void set_axes(const AxisSpec& x, const AxisSpec& y);
  AxisSpec x_axis() const { return x_; }
  AxisSpec y_axis() const { return y_; }
  void set_histogram_spec(const HistogramSpec& spec);
  void set_empty_text(const QString& text);  // e.g. "Start a run to see data"
  ChartKind kind() const { return kind_; }

  // Line/Scatter: the whole series for a lane (sorted by x for Line). Applied on the next flush.
  void set_series(const QString& lane, std::vector<QPointF> points);
  // Line: a reference series (another run's figures for a lane), drawn dashed in the colour of
  // COLOUR_OF (the lane it is compared with) under its own name, e.g. "last-week:bf16".
  void set_reference_series(const QString& name, std::vector<QPointF> points,
                            const QString& colour_of);
  bool is_reference(const QString& name) const { return reference_.count(name) > 0; }
  // Removes a series (a lane's, a reference or marks) and nothing else: the other series, bands
  // and spans stay as they are.
  void remove_series(const QString& name);
  // Line/Scatter: a series of its own colour, not a lane's: a dashed guide line (an SLO, a
  // threshold; two points span it) or markers over the lanes' points (pass/fail), named NAME in
  // the legend. The axes take its points in.
  void set_marks(const QString& name, std::vector<QPointF> points, const QColor& color,
                 MarkShape shape);
  // Line: the lane's 95 % intervals (sorted by x), drawn as a band in the lane's colour along
  // its line; the value axis takes them in. An empty list removes the band.
  void set_intervals(const QString& lane, std::vector<PointInterval> intervals);
  std::vector<PointInterval> intervals(const QString& lane) const;
  // Line: the lane's spans (XSpan), each shaded in the lane's colour and left out of the legend;
  // an empty list removes them.
  void set_spans(const QString& lane, std::vector<XSpan> spans);
  std::vector<XSpan> spans(const QString& lane) const;
  // Histogram: raw samples for a lane, binned together with the other lanes on the next flush.
  void set_samples(const QString& lane, std::vector<double> samples);
  void clear();

  // Applies staged data now (tests, exports); normal updates go through the coalescing timer.
  void flush();
  int flush_count() const { return flush_count_; }
  // Points the backend currently draws for a lane after downsampling (-1 if unknown lane).
  int drawn_point_count(const QString& lane) const;
  // The series last set for a lane, before downsampling (empty for an unknown lane).
  std::vector<QPointF> series(const QString& lane) const;
  QStringList lanes() const;

  // Export: PNG is drawn at 2x; SVG and PDF are vector. Format from the file suffix.
  // Returns false and sets *error when the file cannot be written.
  bool export_to_file(const QString& path, QString* error = nullptr);
  QImage render_image(qreal scale = 2.0);
  void copy_to_clipboard();
  QSize export_size() const;
  // Asks for a file name (suffix "png", "svg" or "pdf") and exports; errors shown in a dialog.
  void export_with_dialog(const QString& suffix);

 protected:
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  void schedule_flush();
  void apply_xy();
  void apply_histogram();

  ChartKind kind_;
  std::shared_ptr<LanePalette> palette_;
  std::unique_ptr<ChartBackend> backend_;
  QTimer* timer_ = nullptr;
  qint64 last_flush_ms_ = -1'000'000;
  bool dirty_ = false;
  int flush_count_ = 0;
  QString title_;
  AxisSpec x_, y_;
  HistogramSpec histogram_;
  std::map<QString, std::vector<QPointF>> points_;
  std::map<QString, std::vector<double>> samples_;
  std::map<QString, std::vector<PointInterval>> intervals_;
  std::map<QString, std::vector<XSpan>> spans_;
  std::map<QString, size_t> spans_drawn_;  // bands drawn per lane, to remove the ones gone
  struct Marks {
    std::vector<QPointF> points;
    QColor color;
    MarkShape shape = MarkShape::Dot;
  };
  std::map<QString, Marks> marks_;
  std::map<QString, int> drawn_;
  QStringList order_;                     // lanes in the order they were first set (legend order)
  std::map<QString, QString> reference_;  // reference series -> the lane whose colour it takes
};

}  // namespace lb::widgets
