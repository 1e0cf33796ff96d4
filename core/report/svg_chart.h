#pragma once
// A small SVG chart writer: line charts with markers from plain data, with a
// title, axis titles (units included by the caller), ticks, a legend and one
// colour per series. The output uses only SVG Tiny 1.2 elements and
// presentation attributes, so browsers and QSvgRenderer (the PDF writer) draw
// the same picture.
#include <string>

#include "core/report/report_model.h"

namespace lb::report {

struct SvgSize {
  int width = 720;
  int height = 400;
};

std::string render_svg_chart(const ChartSpec& chart, SvgSize size = {});

// Text and attribute escaping for XML and HTML (&, <, >, ", ').
std::string xml_escape(const std::string& text);

}  // namespace lb::report
