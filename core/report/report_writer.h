#pragma once
// Writing a run folder's report: report.html, report.md (+ charts/*.svg),
// requests.csv, qualification-summary.json and texts/ (the lanes' outputs) into
// one output folder. The PDF and the charts as PNG are written by report_pdf/,
// which needs Qt. API keys are removed from every file written.
#include <set>
#include <string>
#include <vector>

#include "core/report/privacy_scrub.h"
#include "core/report/report_model.h"
#include "core/report/run_folder.h"

namespace lb::report {

// "html", "md", "pdf", "png", "csv", "json"
const std::set<std::string>& report_format_names();
// Parses "html,md" (empty = all). Fills error naming an unknown format.
bool parse_report_formats(const std::string& list, std::set<std::string>& out, std::string* error);

// The model with every API key value and key-like token removed from its text.
void redact_model_secrets(ReportModel& model, const PrivacyScrubber& scrubber);

struct ReportWriteResult {
  std::vector<std::string> written;  // file names relative to the output folder
  std::vector<std::string> errors;   // one sentence each; the other files are still written
  bool ok() const { return errors.empty(); }
};

// Writes the formats of FORMATS other than "pdf" and "png" into OUT_DIR (created). MODEL must
// already be redacted.
ReportWriteResult write_report_files(const RunFolder& folder, const ReportModel& model,
                                     const PrivacyScrubber& scrubber, const std::string& out_dir,
                                     const std::set<std::string>& formats);

}  // namespace lb::report
