#include "core/report/markdown_report.h"

#include <sstream>

#include "core/compare/diff_highlight.h"

namespace lb::report {
namespace {

// A table cell: text, with pipes escaped too.
std::string cell(const std::string& text) { return markdown_text(text); }

void write_table(std::ostream& out, const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& rows) {
  out << "|";
  for (const auto& h : header) out << " " << cell(h) << " |";
  out << "\n|";
  for (size_t i = 0; i < header.size(); ++i) out << "---|";
  out << "\n";
  for (const auto& row : rows) {
    out << "|";
    for (const auto& c : row) out << " " << cell(c) << " |";
    out << "\n";
  }
}

// A fence longer than any run of backticks in the text, so the text cannot
// close it.
std::string fence_for(const std::string& text) {
  size_t longest = 0, run = 0;
  for (char ch : text) {
    run = ch == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<size_t>(3, longest + 1), '`');
}

void write_markdown_header(std::ostream& out, const ReportModel& m) {
  out << "# " << markdown_text(m.title) << "\n\n";
  if (!m.complete) out << "**INCOMPLETE RUN** - see Caveats.\n\n";
  if (!m.started_at.empty())
    out << "Run: " << m.started_at << " to "
        << (m.finished_at.empty() ? "(not finished)" : m.finished_at) << "\n\n";
  out << "## Decision\n\n";
  if (m.decision) {
    out << "**" << markdown_text(decision_headline(*m.decision)) << "** ("
        << markdown_text(m.decision->decided_at) << ")\n\n";
    if (!m.decision->overridden_gates.empty()) {
      out << "**Override:** promoted although these gates were pending or failed:\n\n";
      for (const std::string& g : m.decision->overridden_gates)
        out << "- " << markdown_text(g) << "\n";
      out << "\n";
    }
    out << (m.decision->rationale.empty() ? "No rationale given."
                                          : markdown_text(m.decision->rationale))
        << "\n\n";
  } else {
    out << "No decision recorded.\n\n";
  }
}

void write_markdown_lanes(std::ostream& out, const ReportModel& m) {
  out << "## Lanes\n\n";
  for (const auto& lane : m.lanes) {
    out << "### " << markdown_text(lane.id) << "\n\n";
    for (const auto& [k, v] : lane.notes)
      out << "- " << markdown_text(k) << ": " << markdown_text(v) << "\n";
    if (!lane.notes.empty()) out << "\n";
    std::vector<std::vector<std::string>> rows;
    for (const auto& [k, v] : lane.environment) rows.push_back({k, v});
    if (!rows.empty()) write_table(out, {"Environment", "Value"}, rows);
    out << "\n";
  }
}

void write_markdown_gates(std::ostream& out, const ReportModel& m) {
  out << "## Gates\n\n";
  if (m.gates.empty()) {
    out << "No gates were run.\n\n";
    return;
  }
  std::vector<std::string> header{"Gate", "Experiment"};
  header.insert(header.end(), m.gates.lanes.begin(), m.gates.lanes.end());
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : m.gates.rows) {
    std::vector<std::string> r{row.label, row.experiment};
    for (const auto& c : row.cells) r.push_back(cell_text(c));
    rows.push_back(std::move(r));
  }
  write_table(out, header, rows);
  out << "\n";
}

void write_performance(std::ostream& out, const ReportModel& m) {
  out << "## Performance\n\n";
  for (const auto& t : m.performance) {
    out << "### " << markdown_text(t.title) << "\n\n";
    write_table(out, t.header, t.rows);
    if (!t.note.empty()) out << "\n" << markdown_text(t.note) << "\n";
    out << "\n";
  }
  if (m.charts.empty()) return;
  out << "## Charts\n\n";
  for (const auto& c : m.charts)
    out << "![" << markdown_text(c.title) << "](charts/" << markdown_text(chart_file_stem(c))
        << ".svg)\n\n";
}

void write_artifacts(std::ostream& out, const ReportModel& m) {
  if (m.artifacts.empty()) return;
  const ReportTable t = artifacts_table(m.artifacts);
  out << "## Artifacts\n\n### " << markdown_text(t.title) << "\n\n";
  write_table(out, t.header, t.rows);
  out << "\n" << markdown_text(t.note) << "\n\n";
}

void write_pairs(std::ostream& out, const ReportModel& m) {
  out << "## Reviewed pairs\n\n";
  if (m.pairs.empty()) {
    out << "No non-identical pairs.\n\n";
    return;
  }
  out << "Removed text is marked [-like this-], added text {+like this+}.\n\n";
  for (const auto& p : m.pairs) {
    out << "### Prompt " << p.index
        << (p.prompt_id.empty() ? "" : " (" + markdown_text(p.prompt_id) + ")") << ": "
        << markdown_text(p.baseline) << " vs " << markdown_text(p.candidate)
        << "\n\n- triage: " << markdown_text(p.triage) << ", ratio " << format_number(p.ratio, 3)
        << "\n- verdict: " << markdown_text(p.verdict)
        << (p.note.empty() ? "" : " - " + markdown_text(p.note)) << "\n\n";
    const std::string diff = wdiff_text(p.text_a, p.text_b);
    const std::string fence = fence_for(diff);
    out << fence << "text\n" << diff << "\n" << fence << "\n\n";
    if (p.text_cut) out << "(outputs shortened; full texts are in texts/)\n\n";
  }
  if (m.pairs_left_out > 0)
    out << m.pairs_left_out << " more non-identical pair(s) are in review.json.\n\n";
}

void write_markdown_caveats(std::ostream& out, const ReportModel& m) {
  out << "## Caveats\n\n";
  if (m.caveats.empty()) out << "None.\n";
  for (const auto& c : m.caveats) out << "- " << markdown_text(c) << "\n";
  const std::string fence = fence_for(m.reproduce_command);
  out << "\n## Reproduce\n\nFrom the run folder, which holds plan.json "
         "(secrets removed):\n\n"
      << fence << "sh\n"
      << m.reproduce_command << "\n"
      << fence << "\n";
}

}  // namespace

std::string markdown_text(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (ch == '\n' || ch == '\r' || static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) {
      out += ' ';  // a line break would start a heading, a list, a fence or a link definition
      continue;
    }
    // A bracket closes a link or an image only before "(", "[" or ":"; "[lo, hi]" stays as is.
    const bool closes_link = ch == ']' && (next == '(' || next == '[' || next == ':');
    if (closes_link || std::string_view("\\`<>|").find(ch) != std::string_view::npos) out += '\\';
    out += ch;
  }
  return out;
}

std::string wdiff_text(const std::string& a, const std::string& b) {
  const auto diff = compare::DiffHighlight::compute(a, b);
  std::string out;
  for (const auto& run : diff.runs()) {
    const std::string_view ta(a.data() + run.a.utf8.begin, run.a.utf8.size());
    const std::string_view tb(b.data() + run.b.utf8.begin, run.b.utf8.size());
    if (run.tag == compare::OpTag::Equal) {
      out += ta;
      continue;
    }
    if (!ta.empty()) out += "[-" + std::string(ta) + "-]";
    if (!tb.empty()) out += "{+" + std::string(tb) + "+}";
  }
  return out;
}

std::string render_markdown(const ReportModel& m) {
  std::ostringstream out;
  write_markdown_header(out, m);
  write_markdown_lanes(out, m);
  write_markdown_gates(out, m);
  write_artifacts(out, m);
  write_performance(out, m);
  write_pairs(out, m);
  write_markdown_caveats(out, m);
  return out.str();
}

}  // namespace lb::report
