#include "report_pdf/svg_text_object.h"

#include <QPainter>
#include <QSvgRenderer>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>

namespace lb::report_pdf {

QSizeF SvgTextObject::intrinsicSize(QTextDocument* doc, int, const QTextFormat& format) {
  QSvgRenderer renderer(format.property(kSvgProperty).toByteArray());
  const QSizeF native = renderer.defaultSize();
  if (native.isEmpty()) return {0, 0};
  // The width between the root frame's margins, keeping the chart's aspect ratio.
  const QTextFrameFormat frame = doc->rootFrame()->frameFormat();
  const double inner = doc->textWidth() - frame.leftMargin() - frame.rightMargin() -
                       2 * (frame.padding() + frame.border());
  const double width = inner > 0 ? inner * 0.98 : native.width();
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
