#pragma once
// The qualification report as a PDF: the same content as the HTML report, paginated on A4, with
// every chart drawn as vectors from its SVG. Needs a QGuiApplication (see gui_application.h).
#include <set>
#include <string>

#include "core/report/report_model.h"
#include "core/report/report_writer.h"

namespace lb::report_pdf {

// Writes MODEL (already redacted) to PATH through a temporary file and a rename. Returns false
// with error filled when there is no QGuiApplication or the file cannot be written.
bool write_pdf_report(const report::ReportModel& model, const std::string& path,
                      std::string* error);

// The formats of FORMATS drawn with Qt, next to report::write_report_files: "png" (the charts,
// chart_png.h) and "pdf" (report.pdf) into OUT_DIR; appends what was written and every error.
void write_drawn_report_files(const report::ReportModel& model,
                              const std::set<std::string>& formats, const std::string& out_dir,
                              report::ReportWriteResult& result);

}  // namespace lb::report_pdf
