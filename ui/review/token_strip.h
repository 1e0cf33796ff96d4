#pragma once
// One lane's answer as a strip of tokens under its text pane. Each token's background is shaded
// by how sure the lane was of it: white at p = 1, deeper orange as exp(logprob) falls, grey when
// the logprob is missing or not finite. The first divergent token has a red frame; the token
// clicked last (in either strip) a blue one. Clicking a token emits token_clicked.
#include <QWidget>
#include <cstdint>
#include <vector>

#include "core/logprobs/token_logprobs.h"

namespace lb::ui {

class TokenStrip : public QWidget {
  Q_OBJECT
 public:
  explicit TokenStrip(QWidget* parent = nullptr);

  void set_tokens(logprobs::TokenSeries tokens, int64_t divergence_index);
  void clear_tokens() { set_tokens({}, -1); }
  void set_selected(int index);  // -1 = none

  int token_count() const { return static_cast<int>(tokens_.size()); }
  int64_t divergence_index() const { return divergence_; }
  int selected() const { return selected_; }
  QRect token_rect(int index) const;  // in widget coordinates; empty when out of range
  // The background a token is painted with (for tests and the legend).
  static QColor shade_for(double logprob);

  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;
  QSize sizeHint() const override;

 signals:
  void token_clicked(int index);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  bool event(QEvent* event) override;

 private:
  int layout_rects(int width, std::vector<QRect>* rects) const;  // returns the height
  QString label(int index) const;
  int index_at(const QPoint& pos) const;

  logprobs::TokenSeries tokens_;
  std::vector<QRect> rects_;
  int64_t divergence_ = -1;
  int selected_ = -1;
};

}  // namespace lb::ui
