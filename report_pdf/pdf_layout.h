#pragma once
// The qualification report laid out for PDF pages: rich text by QTextDocument, charts as vector
// objects. write_pdf_report draws exactly this layout page by page, so what a test checks of it
// (nothing past the right margin, no figure broken across lines) is what the PDF shows.
#include <QTextDocument>
#include <memory>

#include "core/report/report_model.h"
#include "report_pdf/svg_text_object.h"

class QPagedPaintDevice;

namespace lb::report_pdf {

struct PdfLayout {
  SvgTextObject charts;  // declared before doc: the document's layout uses it until destroyed
  QTextDocument doc;     // paginated: pageSize() is one page's text area, in device pixels
  double margin_px = 0;  // page margin on every side, in device pixels
};

// Lays MODEL (already redacted) out for DEVICE's pages (its whole page; the margins are ours).
std::unique_ptr<PdfLayout> lay_out_pdf(const report::ReportModel& model, QPagedPaintDevice& device);

}  // namespace lb::report_pdf
