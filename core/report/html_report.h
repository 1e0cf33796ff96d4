#pragma once
// The report as one self-contained HTML file: inline CSS, charts as inline SVG,
// no external resource of any kind. Every piece of text from the run is
// escaped.
#include <string>

#include "core/report/report_model.h"

namespace lb::report {

struct HtmlOptions {
  // Charts as inline SVG. When false, each chart is a paragraph "[[chart:ID]]" for a renderer
  // that draws charts itself (the PDF writer).
  bool inline_charts = true;
  // Markup Qt's rich text understands (QTextDocument): inline styles instead of <del>/<ins>.
  bool qt_rich_text = false;
};

std::string render_html(const ReportModel& model, const HtmlOptions& options = {});
std::string chart_placeholder(const std::string& chart_id);

// One side of a pair with its changed ranges marked: <del> on the baseline
// side, <ins> on the candidate side; everything escaped.
std::string marked_html(const std::string& a_utf8, const std::string& b_utf8, bool baseline_side,
                        bool qt_rich_text = false);

}  // namespace lb::report
