#pragma once
// The report as Markdown. Charts are referenced as charts/<id>.svg next to the
// file.
#include <string>

#include "report/report_model.h"

namespace lb::report {

std::string render_markdown(const ReportModel& model);

// A pair's difference as one readable text: unchanged text as is, removed text
// as [-...-], added text as {+...+} (wdiff's notation).
std::string wdiff_text(const std::string& a_utf8, const std::string& b_utf8);

}  // namespace lb::report
