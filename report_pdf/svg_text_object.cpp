#include "report_pdf/svg_text_object.h"

#include <QPainter>
#include <QSvgRenderer>
#include <QTextCursor>
#include <QTextDocument>

namespace lb::report_pdf {

QSizeF SvgTextObject::intrinsicSize(QTextDocument* doc, int, const QTextFormat& format) {
  QSvgRenderer renderer(format.property(kSvgProperty).toByteArray());
  const QSizeF native = renderer.defaultSize();
  if (native.isEmpty()) return {0, 0};
  // The full text width (less a little for the frame), keeping the chart's aspect ratio.
  const double width = doc->textWidth() > 0 ? doc->textWidth() * 0.98 : native.width();
  return {width, width * native.height() / native.width()};
}

void SvgTextObject::drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int,
                               const QTextFormat& format) {
  QSvgRenderer renderer(format.property(kSvgProperty).toByteArray());
  renderer.render(painter, rect);
}

void SvgTextObject::insert(QTextCursor& cursor, const QByteArray& svg) {
  QTextCharFormat format;
  format.setObjectType(kObjectType);
  format.setProperty(kSvgProperty, svg);
  cursor.insertText(QString(QChar::ObjectReplacementCharacter), format);
}

}  // namespace lb::report_pdf
