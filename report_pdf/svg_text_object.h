#pragma once
// Charts inside a QTextDocument: an inline object that QTextDocument lays out like a picture
// and that paints with QSvgRenderer, so a PDF gets vector paths, not pixels.
#include <QObject>
#include <QTextObjectInterface>

class QTextCursor;

namespace lb::report_pdf {

class SvgTextObject : public QObject, public QTextObjectInterface {
  Q_OBJECT
  Q_INTERFACES(QTextObjectInterface)

 public:
  static constexpr int kObjectType = QTextFormat::UserObject + 1;
  static constexpr int kSvgProperty = QTextFormat::UserProperty + 1;
  static constexpr int kWidthProperty = QTextFormat::UserProperty + 2;

  using QObject::QObject;
  QSizeF intrinsicSize(QTextDocument* doc, int pos, const QTextFormat& format) override;
  void drawObject(QPainter* painter, const QRectF& rect, QTextDocument* doc, int pos,
                  const QTextFormat& format) override;

  // Replaces the selection of CURSOR by the chart SVG, WIDTH wide in the document's units (its
  // height keeps the chart's aspect ratio).
  static void insert(QTextCursor& cursor, const QByteArray& svg, double width);
};

}  // namespace lb::report_pdf
