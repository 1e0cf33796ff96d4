#include "report/report_writer.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/html_report.h"
#include "report/markdown_report.h"
#include "report/qualification_summary.h"
#include "report/requests_csv.h"
#include "report/svg_chart.h"
#include "run/atomic_file.h"

namespace lb::report {
namespace {

namespace fs = std::filesystem;

void write(ReportWriteResult& result, const std::string& out_dir, const std::string& name,
           const std::string& content) {
  std::string error;
  if (run::write_file_atomically((fs::path(out_dir) / name).string(), content, &error))
    result.written.push_back(name);
  else
    result.errors.push_back(error);
}

// The lanes' outputs, keys removed (a model can echo what it was given).
void copy_texts(ReportWriteResult& result, const RunFolder& folder, const PrivacyScrubber& scrubber,
                const std::string& out_dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::path(folder.dir) / "texts", ec)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    write(result, out_dir, "texts/" + entry.path().filename().string(),
          scrubber.redact_secrets(text.str()));
  }
}

void redact_pairs(std::vector<std::pair<std::string, std::string>>& pairs,
                  const PrivacyScrubber& s) {
  for (auto& [k, v] : pairs) k = s.redact_secrets(k), v = s.redact_secrets(v);
}

}  // namespace

const std::set<std::string>& report_format_names() {
  static const std::set<std::string> names = {"html", "md", "pdf", "png", "csv", "json"};
  return names;
}

bool parse_report_formats(const std::string& list, std::set<std::string>& out, std::string* error) {
  out.clear();
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    if (!report_format_names().count(item)) {
      if (error)
        *error = "unknown report format '" + item + "' (expected html, md, pdf, png, csv, json)";
      return false;
    }
    out.insert(item);
  }
  if (out.empty()) out = report_format_names();
  return true;
}

void redact_model_secrets(ReportModel& m, const PrivacyScrubber& s) {
  auto r = [&s](std::string& text) { text = s.redact_secrets(text); };
  r(m.title), r(m.run_name), r(m.reproduce_command);
  if (m.decision) r(m.decision->rationale);
  for (auto& lane : m.lanes)
    r(lane.id), redact_pairs(lane.notes, s), redact_pairs(lane.environment, s);
  for (auto& row : m.gates.rows)
    for (auto& c : row.cells) r(c.detail);
  for (auto& t : m.performance) {
    r(t.title), r(t.note);
    for (auto& row : t.rows)
      for (auto& c : row) r(c);
  }
  for (auto& c : m.charts) {
    r(c.title);
    for (auto& series : c.series) r(series.name);
  }
  for (auto& p : m.pairs) r(p.text_a), r(p.text_b), r(p.note);
  for (auto& c : m.caveats) r(c);
}

ReportWriteResult write_report_files(const RunFolder& folder, const ReportModel& model,
                                     const PrivacyScrubber& scrubber, const std::string& out_dir,
                                     const std::set<std::string>& formats) {
  ReportWriteResult result;
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    result.errors.push_back("cannot create " + out_dir + ": " + ec.message());
    return result;
  }
  if (formats.count("html")) write(result, out_dir, "report.html", render_html(model));
  if (formats.count("md")) {
    write(result, out_dir, "report.md", render_markdown(model));
    for (const auto& c : model.charts)
      write(result, out_dir, "charts/" + c.id + ".svg", render_svg_chart(c));
  }
  if (formats.count("csv")) write(result, out_dir, "requests.csv", requests_csv(folder));
  if (formats.count("json")) {
    std::string error;
    if (auto text = qualification_summary_text(folder, model, scrubber, &error))
      write(result, out_dir, "qualification-summary.json", *text);
    else
      result.errors.push_back(error);
  }
  copy_texts(result, folder, scrubber, out_dir);
  return result;
}

}  // namespace lb::report
