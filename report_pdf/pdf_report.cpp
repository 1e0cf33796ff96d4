#include "report_pdf/pdf_report.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QGuiApplication>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>

#include "core/files/confined_write.h"
#include "report_pdf/chart_png.h"
#include "report_pdf/pdf_layout.h"

namespace lb::report_pdf {
namespace {

constexpr int kResolutionDpi = 300;

// Draws every page of LAYOUT with its page number ("3 / 7") in the bottom margin.
void draw_pages(PdfLayout& layout, QPdfWriter& writer) {
  QTextDocument& doc = layout.doc;
  const QSizeF area = doc.pageSize();
  const int pages = doc.pageCount();
  const double margin = layout.margin_px;
  QPainter painter(&writer);
  for (int i = 0; i < pages; ++i) {
    if (i > 0) writer.newPage();
    painter.save();
    painter.translate(margin, margin - i * area.height());
    const QRectF view(0, i * area.height(), area.width(), area.height());
    painter.setClipRect(view);
    QAbstractTextDocumentLayout::PaintContext context;
    context.clip = view;
    doc.documentLayout()->draw(&painter, context);
    painter.restore();
    painter.setFont(doc.defaultFont());
    const QRectF footer(margin, margin + area.height(), area.width(), margin / 2);
    painter.drawText(footer, Qt::AlignRight | Qt::AlignVCenter,
                     QStringLiteral("%1 / %2").arg(i + 1).arg(pages));
  }
}

// Draws MODEL as a PDF into DEVICE, open for writing.
void draw_pdf(const report::ReportModel& model, QIODevice& device) {
  QPdfWriter writer(&device);
  writer.setResolution(kResolutionDpi);
  writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                   QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter));
  writer.setTitle(QString::fromStdString(model.title));
  writer.setCreator(QStringLiteral("LaneBench"));
  const auto layout = lay_out_pdf(model, writer);
  draw_pages(*layout, writer);
}

bool has_gui_application(std::string* error) {
  if (qobject_cast<QGuiApplication*>(QCoreApplication::instance())) return true;
  if (error) *error = "cannot write a PDF without a QGuiApplication";
  return false;
}

// report.pdf in a report folder, through its one writer: a link planted there is refused.
bool write_pdf_into(const report::ReportModel& model, const std::string& out_dir,
                    std::string* error) {
  if (!has_gui_application(error)) return false;
  QByteArray pdf;
  QBuffer buffer(&pdf);
  buffer.open(QIODevice::WriteOnly);
  draw_pdf(model, buffer);
  return files::write_confined(out_dir, "report.pdf",
                               std::string_view(pdf.constData(), static_cast<size_t>(pdf.size())),
                               error);
}

}  // namespace

bool write_pdf_report(const report::ReportModel& model, const std::string& path,
                      std::string* error) {
  if (!has_gui_application(error)) return false;
  QSaveFile file(QString::fromStdString(path));
  if (!file.open(QIODevice::WriteOnly)) {
    if (error) *error = "cannot write " + path + ": " + file.errorString().toStdString();
    return false;
  }
  draw_pdf(model, file);
  if (!file.commit()) {
    if (error) *error = "cannot write " + path + ": " + file.errorString().toStdString();
    return false;
  }
  return true;
}

void write_drawn_report_files(const report::ReportModel& model,
                              const std::set<std::string>& formats, const std::string& out_dir,
                              report::ReportWriteResult& result) {
  if (formats.count("png")) write_chart_pngs(model, out_dir, result);
  if (!formats.count("pdf")) return;
  std::string error;
  if (write_pdf_into(model, out_dir, &error))
    result.written.push_back("report.pdf");
  else
    result.errors.push_back(error);
}

}  // namespace lb::report_pdf
