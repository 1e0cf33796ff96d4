#include "core/report/report_writer.h"

#include <filesystem>
#include <sstream>

#include "core/files/confined_write.h"
#include "core/files/regular_file.h"
#include "core/files/safe_file_name.h"
#include "core/report/html_report.h"
#include "core/report/markdown_report.h"
#include "core/report/qualification_summary.h"
#include "core/report/requests_csv.h"
#include "core/report/svg_chart.h"

namespace lb::report {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxTextsFileBytes = 512 * files::kMiB;

// The output folder may have come with the run folder (RUN/report), links planted in it
// included: every file goes through the confined writer.
void write(ReportWriteResult& result, const std::string& out_dir, const std::string& name,
           const std::string& content) {
  std::string error;
  if (files::write_confined(out_dir, name, content, &error))
    result.written.push_back(name);
  else
    result.errors.push_back(error);
}

// The names a run writes into texts/: <lane>.texts.json and <lane>.samples.json, lane ids
// being file-safe. Anything else there was not written by a run.
bool is_texts_file_name(const std::string& name) {
  for (const std::string_view suffix : {".texts.json", ".samples.json"})
    if (name.size() > suffix.size() && name.ends_with(suffix) &&
        files::is_confined_file_name(name.substr(0, name.size() - suffix.size())))
      return true;
  return false;
}

// The lanes' outputs, keys removed (a model can echo what it was given). Only regular files
// with a run's names are copied, never what a link points to (texts/a.texts.json -> id_rsa).
void copy_texts(ReportWriteResult& result, const RunFolder& folder, const PrivacyScrubber& scrubber,
                const std::string& out_dir) {
  std::error_code ec;
  const fs::path texts = fs::path(folder.dir) / "texts";
  if (fs::is_symlink(texts, ec)) {
    result.errors.push_back(texts.string() + " is a link, which is not followed: texts not copied");
    return;
  }
  for (const auto& entry : fs::directory_iterator(texts, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_symlink(ec) || !entry.is_regular_file(ec) || !is_texts_file_name(name)) continue;
    std::string error;
    const auto text = files::read_regular_file(entry.path().string(), kMaxTextsFileBytes, &error,
                                               files::Links::Refuse);
    if (!text) {
      result.errors.push_back(error);
      continue;
    }
    write(result, out_dir, "texts/" + name, scrubber.redact_secrets(*text));
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
  if (m.decision) {
    r(m.decision->rationale), r(m.decision->candidate), r(m.decision->baseline);
    for (auto& g : m.decision->overridden_gates) r(g);
  }
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
  if (formats.count("html")) write(result, out_dir, "report.html", render_html(model));
  if (formats.count("md")) {
    write(result, out_dir, "report.md", render_markdown(model));
    for (const auto& c : model.charts)
      write(result, out_dir, "charts/" + chart_file_stem(c) + ".svg", render_svg_chart(c));
  }
  if (formats.count("csv")) {
    std::string error;
    if (write_requests_csv(folder, out_dir, "requests.csv", &error))
      result.written.push_back("requests.csv");
    else
      result.errors.push_back(error);
  }
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
