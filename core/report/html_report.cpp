#include "core/report/html_report.h"

#include <sstream>

#include "core/compare/diff_highlight.h"
#include "core/report/gate_table.h"
#include "core/report/svg_chart.h"

namespace lb::report {
namespace {

// The page body in a browser. Qt's rich text (the PDF) indents tables by the body's padding and
// narrows full-width ones by it; its pages have margins of their own.
constexpr const char* kBrowserBodyCss =
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#111}\n";

constexpr const char* kCss =
    R"(h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0}th,td{border:1px solid #bbb;padding:.25em .6em;text-align:left;vertical-align:top}
th{background:#f0f0f0}td.pass{background:#e3f4e3}td.fail{background:#fbe0e0;font-weight:bold}
td.unsupported{background:#fff4d6}td.notrun{color:#777}.incomplete{background:#fbe0e0;border:2px solid #c00;padding:.6em;font-weight:bold}
.decision{font-size:1.2em;font-weight:bold}.swatch{display:inline-block;width:.9em;height:.9em;margin-right:.4em;vertical-align:middle}
.note{color:#555;font-size:.9em}.pair{display:flex;gap:1em}.pair pre{flex:1;white-space:pre-wrap;word-break:break-word;background:#fafafa;border:1px solid #ddd;padding:.5em;margin:0}
del{background:#fbd0d0;text-decoration:line-through}ins{background:#c8f0c8;text-decoration:none}
figure{margin:1em 0}code{background:#f4f4f4;padding:.1em .3em})";

std::string esc(const std::string& s) { return xml_escape(s); }

// Inline as well as in the stylesheet: Qt's rich text (the PDF) ignores class selectors on cells.
const char* status_color(GateStatus s) {
  switch (s) {
    case GateStatus::Pass:
      return "#e3f4e3";
    case GateStatus::Fail:
      return "#fbe0e0";
    case GateStatus::Unsupported:
      return "#fff4d6";
    case GateStatus::NotRun:
    case GateStatus::Stopped:
      return "#ffffff";
  }
  return "#ffffff";
}

// The status name as a CSS class ("not run" -> "notrun").
std::string status_class(GateStatus s) {
  std::string name = gate_status_name(s);
  std::erase(name, ' ');
  return name;
}

// Qt's rich text squeezes a table to its narrowest columns and breaks words anywhere to get there
// ("1202" / ".8", "TPO" / "T"). Wide tables there get the full width, narrower cell padding,
// single-word cells (figures, lane ids) kept on one line, and headers set one word per line, so
// eleven columns fit an A4 page with no word broken.
void write_table(std::ostream& out, const ReportTable& t, bool qt_rich_text = false) {
  const bool wide = qt_rich_text && t.header.size() >= 6;
  const char* padding = " style=\"padding:1px 3px\"";
  const char* unbroken = " style=\"padding:1px 3px;white-space:nowrap\"";
  out << "<h3>" << esc(t.title) << "</h3>\n<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\""
      << (wide ? " width=\"100%\"" : "") << ">\n<tr>";
  for (const auto& h : t.header) {
    if (!wide) {
      out << "<th>" << esc(h) << "</th>";
      continue;
    }
    std::string words = esc(h);
    for (size_t at = words.find(' '); at != std::string::npos; at = words.find(' ', at)) {
      words.replace(at, 1, "<br/>");
    }
    out << "<th" << unbroken << ">" << words << "</th>";
  }
  out << "</tr>\n";
  for (const auto& row : t.rows) {
    out << "<tr>";
    for (const auto& c : row) {
      const char* style = !wide ? "" : c.find(' ') == std::string::npos ? unbroken : padding;
      out << "<td" << style << ">" << esc(c) << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</table>\n";
  if (!t.note.empty()) out << "<p class=\"note\">" << esc(t.note) << "</p>\n";
}

void write_header(std::ostream& out, const ReportModel& m) {
  out << "<h1>" << esc(m.title) << "</h1>\n";
  if (!m.complete)
    out << "<p class=\"incomplete\">Incomplete run: see the caveats before "
           "using these figures.</p>\n";
  if (!m.started_at.empty())
    out << "<p>Run " << esc(m.started_at) << " to "
        << esc(m.finished_at.empty() ? "(not finished)" : m.finished_at) << "</p>\n";
  out << "<h2>Decision</h2>\n";
  if (!m.decision) {
    out << "<p>No decision recorded.</p>\n";
    return;
  }
  out << "<p class=\"decision\">" << esc(decision_headline(*m.decision)) << "</p>\n";
  if (!m.decision->overridden_gates.empty()) {
    out << "<p><strong>Override:</strong> promoted although these gates were pending or "
           "failed:</p>\n<ul>\n";
    for (const std::string& g : m.decision->overridden_gates) out << "<li>" << esc(g) << "</li>\n";
    out << "</ul>\n";
  }
  out << "<p>" << esc(m.decision->rationale.empty() ? "No rationale given." : m.decision->rationale)
      << "</p>\n<p class=\"note\">Decided " << esc(m.decision->decided_at) << "</p>\n";
}

void write_lanes(std::ostream& out, const ReportModel& m) {
  out << "<h2>Lanes</h2>\n";
  for (const auto& lane : m.lanes) {
    out << "<h3><span class=\"swatch\" style=\"background:" << esc(lane.color) << "\"></span>"
        << esc(lane.id) << "</h3>\n";
    if (!lane.notes.empty()) {
      out << "<ul>\n";
      for (const auto& [k, v] : lane.notes) out << "<li>" << esc(k) << ": " << esc(v) << "</li>\n";
      out << "</ul>\n";
    }
    ReportTable env{"", {"Environment", "Value"}, {}, ""};
    for (const auto& [k, v] : lane.environment) env.rows.push_back({k, v});
    if (!env.rows.empty()) write_table(out, env);
  }
}

void write_gates(std::ostream& out, const ReportModel& m) {
  out << "<h2>Gates</h2>\n";
  if (m.gates.empty()) {
    out << "<p>No gates were run.</p>\n";
    return;
  }
  out << "<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\">\n<tr><th>Gate</th>"
         "<th>Experiment</th>";
  for (const auto& lane : m.gates.lanes) out << "<th>" << esc(lane) << "</th>";
  out << "</tr>\n";
  for (const auto& row : m.gates.rows) {
    out << "<tr><td>" << esc(row.label) << "</td><td>" << esc(row.experiment) << "</td>";
    for (const auto& c : row.cells)
      out << "<td class=\"" << status_class(c.status)
          << "\" style=\"background-color:" << status_color(c.status) << "\" title=\""
          << esc(c.detail) << "\">" << esc(cell_text(c)) << "</td>";
    out << "</tr>\n";
  }
  out << "</table>\n";
}

void write_artifacts(std::ostream& out, const ReportModel& m, const HtmlOptions& o) {
  if (m.artifacts.empty()) return;
  out << "<h2>Artifacts</h2>\n";
  write_table(out, artifacts_table(m.artifacts), o.qt_rich_text);
}

void write_performance(std::ostream& out, const ReportModel& m, const HtmlOptions& o) {
  out << "<h2>Performance</h2>\n";
  for (const auto& t : m.performance) write_table(out, t, o.qt_rich_text);
  if (m.charts.empty()) return;
  // On paper the charts start a page: a heading left alone at the foot of one reads badly.
  out << (o.qt_rich_text ? "<h2 style=\"page-break-before: always\">" : "<h2>") << "Charts</h2>\n";
  for (const auto& c : m.charts) {
    if (o.inline_charts)
      out << "<figure id=\"chart-" << esc(c.id) << "\">\n" << render_svg_chart(c) << "</figure>\n";
    else
      out << "<p>" << esc(chart_placeholder(c.id)) << "</p>\n";
  }
}

void write_pairs(std::ostream& out, const ReportModel& m, const HtmlOptions& o) {
  out << "<h2>Reviewed pairs</h2>\n";
  if (m.pairs.empty()) out << "<p>No non-identical pairs.</p>\n";
  for (const auto& p : m.pairs) {
    out << "<h3>Prompt " << p.index << (p.prompt_id.empty() ? "" : " (" + esc(p.prompt_id) + ")")
        << ": " << esc(p.baseline) << " vs " << esc(p.candidate) << "</h3>\n<p>Triage "
        << esc(p.triage) << ", ratio " << format_number(p.ratio, 3) << "; verdict <b>"
        << esc(p.verdict) << "</b>" << (p.note.empty() ? "" : ": " + esc(p.note))
        << "</p>\n<div class=\"pair\"><pre>"
        << marked_html(p.text_a, p.text_b, true, o.qt_rich_text) << "</pre><pre>"
        << marked_html(p.text_a, p.text_b, false, o.qt_rich_text) << "</pre></div>\n";
    if (p.text_cut)
      out << "<p class=\"note\">Outputs shortened; full texts are in "
             "texts/.</p>\n";
  }
  if (m.pairs_left_out > 0)
    out << "<p>" << m.pairs_left_out << " more non-identical pair(s) are in review.json.</p>\n";
}

void write_caveats(std::ostream& out, const ReportModel& m) {
  out << "<h2>Caveats</h2>\n<ul>\n";
  if (m.caveats.empty()) out << "<li>None.</li>\n";
  for (const auto& c : m.caveats) out << "<li>" << esc(c) << "</li>\n";
  out << "</ul>\n<h2>Reproduce</h2>\n<p>From the run folder, which holds "
         "plan.json (secrets "
         "removed):</p>\n<pre><code>"
      << esc(m.reproduce_command) << "</code></pre>\n";
}

}  // namespace

std::string chart_placeholder(const std::string& chart_id) { return "[[chart:" + chart_id + "]]"; }

std::string marked_html(const std::string& a, const std::string& b, bool baseline_side,
                        bool qt_rich_text) {
  const auto diff = compare::DiffHighlight::compute(a, b);
  const std::string& text = baseline_side ? a : b;
  const std::string open =
      !qt_rich_text   ? (baseline_side ? "<del>" : "<ins>")
      : baseline_side ? "<span style=\"background-color:#fbd0d0;text-decoration:line-through\">"
                      : "<span style=\"background-color:#c8f0c8\">";
  const std::string close = !qt_rich_text ? (baseline_side ? "</del>" : "</ins>") : "</span>";
  std::string out;
  size_t at = 0;
  for (const auto& r : diff.changed_ranges(baseline_side ? compare::Side::A : compare::Side::B,
                                           compare::Unit::Utf8)) {
    out += esc(text.substr(at, r.begin - at));
    out += open + esc(text.substr(r.begin, r.size())) + close;
    at = r.end;
  }
  out += esc(text.substr(at));
  return out;
}

std::string render_html(const ReportModel& m, const HtmlOptions& options) {
  std::ostringstream out;
  // No script runs and nothing is fetched, whatever a run folder's text smuggles in: charts are
  // inline SVG and the style is inline.
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
         "charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\""
         "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
         "form-action 'none'\">\n<title>"
      << esc(m.title) << "</title>\n<style>\n"
      << (options.qt_rich_text ? "" : kBrowserBodyCss) << kCss << "\n</style>\n</head>\n<body>\n";
  write_header(out, m);
  write_lanes(out, m);
  write_gates(out, m);
  write_artifacts(out, m, options);
  write_performance(out, m, options);
  write_pairs(out, m, options);
  write_caveats(out, m);
  out << "</body>\n</html>\n";
  return out.str();
}

}  // namespace lb::report
