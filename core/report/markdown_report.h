#pragma once
// The report as Markdown. Charts are referenced as charts/<id>.svg next to the
// file.
#include <string>

#include "core/report/report_model.h"

namespace lb::report {

std::string render_markdown(const ReportModel& model);

// Text from a run folder or a server as Markdown that shows it and does nothing else: no raw
// HTML (<script>, <img onerror>), no links or remote images, no code spans, no table or line
// breaks. Backslash escapes for \ ` < > | and for a "]" before "(", "[" or ":"; control
// characters and line breaks as spaces.
std::string markdown_text(const std::string& text);

// A pair's difference as one readable text: unchanged text as is, removed text
// as [-...-], added text as {+...+} (wdiff's notation).
std::string wdiff_text(const std::string& a_utf8, const std::string& b_utf8);

}  // namespace lb::report
