#pragma once
// The qualification report as a PDF: the same content as the HTML report, paginated on A4, with
// every chart drawn as vectors from its SVG. Needs a QGuiApplication (see gui_application.h).
#include <string>

#include "report/report_model.h"

namespace lb::report_pdf {

// Writes MODEL (already redacted) to PATH through a temporary file and a rename. Returns false
// with error filled when there is no QGuiApplication or the file cannot be written.
bool write_pdf_report(const report::ReportModel& model, const std::string& path,
                      std::string* error);

}  // namespace lb::report_pdf
