#include "report_pdf/pdf_report.h"

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QFont>
#include <QGuiApplication>
#include <QPageLayout>
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
// Small enough for the eleven-column throughput table to fit A4 portrait. print() adds 2 cm
// margins of its own around the writer's, which are therefore kept small.
constexpr double kBodyPointSize = 8;

// Each "[[chart:ID]]" paragraph of the rich text becomes the chart itself.
void insert_charts(QTextDocument& doc, const report::ReportModel& model) {
  for (const auto& chart : model.charts) {
    const QString marker = QString::fromStdString(report::chart_placeholder(chart.id));
    QTextCursor cursor = doc.find(marker);
    if (cursor.isNull()) continue;
    SvgTextObject::insert(cursor, QByteArray::fromStdString(report::render_svg_chart(chart)));
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
                                     QMarginsF(6, 6, 6, 6), QPageLayout::Millimeter));
    writer.setTitle(QString::fromStdString(model.title));
    writer.setCreator(QStringLiteral("LaneBench"));
    QTextDocument doc;
    QFont font = doc.defaultFont();
    font.setPointSizeF(kBodyPointSize);
    doc.setDefaultFont(font);
    SvgTextObject charts;
    doc.documentLayout()->registerHandler(SvgTextObject::kObjectType, &charts);
    report::HtmlOptions options;
    options.inline_charts = false;
    options.qt_rich_text = true;
    doc.setHtml(QString::fromStdString(report::render_html(model, options)));
    insert_charts(doc, model);
    // print() lays the document out again for the writer's pages (handlers included) and
    // numbers the pages.
    doc.print(&writer);
  }
  if (!file.commit()) {
    if (error) *error = "cannot write " + path + ": " + file.errorString().toStdString();
    return false;
  }
  return true;
}

}  // namespace lb::report_pdf
