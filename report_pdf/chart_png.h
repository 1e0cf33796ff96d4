#pragma once
// The report's charts as PNG files (charts/<id>.png), drawn from the same SVG as the HTML report
// at twice its size, for slides and chat where a vector file will not paste. Needs a
// QGuiApplication (see gui_application.h) for the fonts.
#include <string>

#include "core/report/report_model.h"
#include "core/report/report_writer.h"

namespace lb::report_pdf {

inline constexpr int kChartPngScale = 2;

// Writes every chart of MODEL (already redacted) into OUT_DIR/charts/, each through a temporary
// file and a rename; appends the names written, or one error per chart that could not be.
void write_chart_pngs(const report::ReportModel& model, const std::string& out_dir,
                      report::ReportWriteResult& result);

}  // namespace lb::report_pdf
