#include "models/lane_swatch.h"

#include <QIconEngine>
#include <QPainter>

namespace lb::models {
namespace {

class SwatchEngine final : public QIconEngine {
 public:
  explicit SwatchEngine(const QColor& color) : color_(color) {}
  void paint(QPainter* painter, const QRect& rect, QIcon::Mode, QIcon::State) override {
    painter->fillRect(rect, color_);
  }
  QIconEngine* clone() const override { return new SwatchEngine(color_); }
  QString key() const override { return QStringLiteral("lb-lane-swatch"); }

 private:
  QColor color_;
};

}  // namespace

QIcon lane_swatch(const QColor& color) { return QIcon(new SwatchEngine(color)); }

}  // namespace lb::models
