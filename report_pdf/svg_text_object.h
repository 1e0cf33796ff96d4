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

  using QObject::QObject;
  QSizeF intrinsicSize(QTextDocument* doc, int pos, const QTextFormat& format) override;
  void drawObject(QPainter* painter, const QRectF& rect, QTextDocument* doc, int pos,
                  const QTextFormat& format) override;

  // Replaces the selection of CURSOR by the chart SVG, as wide as the document's text width.
  static void insert(QTextCursor& cursor, const QByteArray& svg);
};

}  // namespace lb::report_pdf
