#include "report_pdf/pdf_layout.h"

#include <QAbstractTextDocumentLayout>
#include <QFont>
#include <QPagedPaintDevice>
#include <QTextCursor>
#include <QTextFrame>

#include "core/report/html_report.h"
#include "core/report/svg_chart.h"

namespace lb::report_pdf {
namespace {

// Small enough for the eleven-column throughput table to fit A4 portrait.
constexpr double kBodyPointSize = 8;
constexpr double kMarginMm = 18;

// Each "[[chart:ID]]" paragraph of the rich text becomes the chart itself, WIDTH wide.
void insert_charts(QTextDocument& doc, const report::ReportModel& model, double width) {
  for (const auto& chart : model.charts) {
    const QString marker = QString::fromStdString(report::chart_placeholder(chart.id));
    QTextCursor cursor = doc.find(marker);
    if (cursor.isNull()) continue;
    SvgTextObject::insert(cursor, QByteArray::fromStdString(report::render_svg_chart(chart)),
                          width);
  }
}

}  // namespace

std::unique_ptr<PdfLayout> lay_out_pdf(const report::ReportModel& model,
                                       QPagedPaintDevice& device) {
  auto out = std::make_unique<PdfLayout>();
  QTextDocument& doc = out->doc;
  // Laid out in the device's own pixels: fonts resolve at its resolution, and the rich text's
  // CSS pixels are scaled to it by the layout as for a 96 dpi screen.
  doc.documentLayout()->setPaintDevice(&device);
  doc.documentLayout()->registerHandler(SvgTextObject::kObjectType, &out->charts);
  QFont font = doc.defaultFont();
  font.setPointSizeF(kBodyPointSize);
  doc.setDefaultFont(font);
  report::HtmlOptions options;
  options.inline_charts = false;
  options.qt_rich_text = true;
  doc.setHtml(QString::fromStdString(report::render_html(model, options)));
  // The margins are drawn around each page's text area rather than set on the root frame, so
  // the page size is the text area and nothing needs scaling between units.
  QTextFrameFormat root = doc.rootFrame()->frameFormat();
  root.setMargin(0);
  root.setPadding(0);
  root.setBorder(0);
  doc.rootFrame()->setFrameFormat(root);
  out->margin_px = kMarginMm / 25.4 * device.logicalDpiX();
  const QSizeF text_area(device.width() - 2 * out->margin_px, device.height() - 2 * out->margin_px);
  doc.setPageSize(text_area);
  insert_charts(doc, model, 0.98 * text_area.width());  // a little room for rounding
  return out;
}

}  // namespace lb::report_pdf
