#include "report_pdf/pdf_report.h"

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QGuiApplication>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextCursor>
#include <QTextDocument>

#include "report/html_report.h"
#include "report/svg_chart.h"
#include "report_pdf/svg_text_object.h"

namespace lb::report_pdf {
namespace {

constexpr int kResolutionDpi = 300;

// Each "[[chart:ID]]" paragraph of the rich text becomes the chart itself.
void insert_charts(QTextDocument& doc, const report::ReportModel& model) {
  for (const auto& chart : model.charts) {
    const QString marker = QString::fromStdString(report::chart_placeholder(chart.id));
    QTextCursor cursor = doc.find(marker);
    if (cursor.isNull()) continue;
    SvgTextObject::insert(cursor, QByteArray::fromStdString(report::render_svg_chart(chart)));
  }
}

void paint_pages(QTextDocument& doc, QPdfWriter& writer, QPainter& painter) {
  const QRectF page = writer.pageLayout().paintRectPixels(writer.resolution());
  const int pages = doc.pageCount();
  QFont footer_font = doc.defaultFont();
  footer_font.setPointSizeF(footer_font.pointSizeF() * 0.8);
  for (int i = 0; i < pages; ++i) {
    if (i > 0) writer.newPage();
    painter.save();
    painter.translate(0, -i * page.height());
    doc.drawContents(&painter, QRectF(0, i * page.height(), page.width(), page.height()));
    painter.restore();
    painter.setFont(footer_font);
    painter.drawText(QRectF(0, page.height(), page.width(), writer.resolution() / 3.0),
                     Qt::AlignRight | Qt::AlignVCenter,
                     QStringLiteral("%1 / %2").arg(i + 1).arg(pages));
  }
}

}  // namespace

bool write_pdf_report(const report::ReportModel& model, const std::string& path,
                      std::string* error) {
  if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance())) {
    if (error) *error = "cannot write a PDF without a QGuiApplication";
    return false;
  }
  QSaveFile file(QString::fromStdString(path));
  if (!file.open(QIODevice::WriteOnly)) {
    if (error) *error = "cannot write " + path + ": " + file.errorString().toStdString();
    return false;
  }
  {
    QPdfWriter writer(&file);
    writer.setResolution(kResolutionDpi);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                     QMarginsF(15, 15, 15, 18), QPageLayout::Millimeter));
    writer.setTitle(QString::fromStdString(model.title));
    writer.setCreator(QStringLiteral("LaneBench"));
    QPainter painter(&writer);
    QTextDocument doc;
    doc.documentLayout()->setPaintDevice(&writer);
    SvgTextObject charts;
    doc.documentLayout()->registerHandler(SvgTextObject::kObjectType, &charts);
    doc.setPageSize(writer.pageLayout().paintRectPixels(writer.resolution()).size());
    report::HtmlOptions options;
    options.inline_charts = false;
    options.qt_rich_text = true;
    doc.setHtml(QString::fromStdString(report::render_html(model, options)));
    insert_charts(doc, model);
    paint_pages(doc, writer, painter);
  }
  if (!file.commit()) {
    if (error) *error = "cannot write " + path + ": " + file.errorString().toStdString();
    return false;
  }
  return true;
}

}  // namespace lb::report_pdf
