#include "report_pdf/svg_text_object.h"

#include <QPainter>
#include <QSvgRenderer>
#include <QTextCursor>

namespace lb::report_pdf {

QSizeF SvgTextObject::intrinsicSize(QTextDocument*, int, const QTextFormat& format) {
  QSvgRenderer renderer(format.property(kSvgProperty).toByteArray());
  const QSizeF native = renderer.defaultSize();
  if (native.isEmpty()) return {0, 0};
  const double width = format.doubleProperty(kWidthProperty);
  if (width <= 0) return native;
  return {width, width * native.height() / native.width()};
}

void SvgTextObject::drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int,
                               const QTextFormat& format) {
  QSvgRenderer renderer(format.property(kSvgProperty).toByteArray());
  renderer.render(painter, rect);
}

void SvgTextObject::insert(QTextCursor& cursor, const QByteArray& svg, double width) {
  QTextCharFormat format;
  format.setObjectType(kObjectType);
  format.setProperty(kSvgProperty, svg);
  format.setProperty(kWidthProperty, width);
  cursor.insertText(QString(QChar::ObjectReplacementCharacter), format);
}

}  // namespace lb::report_pdf
