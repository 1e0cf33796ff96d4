#include "ui/history/effects_view.h"

#include <QGridLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QSvgRenderer>

namespace lb::ui {
namespace {

constexpr int kChartWidthPx = 600;  // the report's 720 x 400 charts, scaled to two per row

QPixmap draw(const QByteArray& svg, qreal device_ratio) {
  QSvgRenderer renderer(svg);
  const QSize logical(kChartWidthPx, kChartWidthPx * 400 / 720);
  QPixmap pixmap(logical * device_ratio);
  pixmap.setDevicePixelRatio(device_ratio);
  pixmap.fill(Qt::white);
  QPainter painter(&pixmap);
  painter.setRenderHint(QPainter::Antialiasing);
  renderer.render(&painter, QRectF(QPointF(0, 0), QSizeF(logical)));
  return pixmap;
}

}  // namespace

EffectsView::EffectsView(QWidget* parent) : QScrollArea(parent) {
  canvas_ = new QWidget(this);
  grid_ = new QGridLayout(canvas_);
  grid_->setSpacing(12);
  empty_ = new QLabel(tr("This run has no prefix cache, speculative decoding or context sweep "
                         "experiment: its effects show here when it has."),
                      canvas_);
  empty_->setStyleSheet("color: gray");
  empty_->setWordWrap(true);
  grid_->addWidget(empty_, 0, 0);
  setWidget(canvas_);
  setWidgetResizable(true);
  setAccessibleName(tr("Effects"));
}

void EffectsView::show_charts(const std::vector<EffectChart>& charts) {
  while (QLayoutItem* item = grid_->takeAt(0)) {
    if (item->widget() != empty_) delete item->widget();
    delete item;
  }
  count_ = static_cast<int>(charts.size());
  empty_->setVisible(charts.empty());
  if (charts.empty()) {
    grid_->addWidget(empty_, 0, 0);
    return;
  }
  const qreal ratio = devicePixelRatioF();
  for (int i = 0; i < count_; ++i) {
    auto* label = new QLabel(canvas_);
    label->setPixmap(draw(charts[static_cast<size_t>(i)].svg, ratio));
    label->setAccessibleName(charts[static_cast<size_t>(i)].title);
    label->setToolTip(charts[static_cast<size_t>(i)].title);
    grid_->addWidget(label, i / 2, i % 2, Qt::AlignTop | Qt::AlignLeft);
  }
  grid_->setRowStretch(grid_->rowCount(), 1);
  grid_->setColumnStretch(2, 1);
}

}  // namespace lb::ui
