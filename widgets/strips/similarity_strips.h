#pragma once
// Similarity strips: one row per distribution of similarity ratios (e.g. within lane A, within
// lane B, across the lanes), each value a dot, with its quartile box and median line over a
// shared ratio axis. Clicking a dot picks it (the sampled review opens that sample pair).
#include <QColor>
#include <QString>
#include <QWidget>
#include <vector>

namespace lb::widgets {

struct StripRow {
  QString label;
  std::vector<double> values;  // ratios, 0..1
  QColor color;
};

class SimilarityStrips : public QWidget {
  Q_OBJECT
 public:
  explicit SimilarityStrips(QWidget* parent = nullptr);

  void set_rows(std::vector<StripRow> rows);
  const std::vector<StripRow>& rows() const { return rows_; }
  // Marks one dot (row, index into its values); -1 clears.
  void set_selected(int row, int index);
  int selected_row() const { return sel_row_; }
  int selected_index() const { return sel_index_; }
  // Where a dot is drawn, in widget coordinates (for tests and tooltips).
  QPointF dot_position(int row, int index) const;
  QSize sizeHint() const override { return {480, 40 + 34 * 3}; }

 signals:
  void picked(int row, int index);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  QRectF plot_rect() const;
  QString row_label(int row) const;  // "within bf16 (28)"
  double label_width() const;
  QRectF row_rect(int row) const;
  double x_of(double ratio) const;
  double axis_min_ = 0;
  std::vector<StripRow> rows_;
  int sel_row_ = -1, sel_index_ = -1;
};

}  // namespace lb::widgets
