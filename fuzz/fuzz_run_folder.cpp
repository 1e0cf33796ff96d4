// A whole run folder from arbitrary bytes, whatever plan.json, summary.json, requests.jsonl,
// review, decision, texts and verification files hold:
// - load_run_folder never throws, and a folder it refuses comes with the reason;
// - lane ids never throw;
// - what the workbench and the report read next (gate table, report model, Markdown, HTML, CSV)
//   and the Benchmark Report export never crash. They may throw a std::exception on a value of the
//   wrong kind: the workbench catches that and shows it as the run's error
//   (ui/history/run_folder_job.cpp, ui/report/report_export_job.cpp), and so does this target.
//
// Input layout: files separated by lines "//file NAME" (NAME from the run folder's own file
// names, see kNames); text before the first such line is plan.json. A seed is a run folder
// written out in this form (fuzz/corpus/run_folder).
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

#include "core/interop/benchmark_report_export.h"
#include "core/report/gate_table.h"
#include "core/report/html_report.h"
#include "core/report/markdown_report.h"
#include "core/report/report_model.h"
#include "core/report/requests_csv.h"
#include "core/report/run_folder.h"
#include "folder_input.h"
#include "split_input.h"

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kNames[] = {"plan.json",
                                       "summary.json",
                                       "environment.json",
                                       "requests.jsonl",
                                       "review.json",
                                       "review.fp8.json",
                                       "decision.json",
                                       "texts/bf16.texts.json",
                                       "texts/fp8.texts.json",
                                       "artifacts/fp8.verification.json"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fs::path& dir = lb::fuzz::scratch_dir("lanebench-fuzz-run-");
  lb::fuzz::write_marked_files(dir, std::string_view(reinterpret_cast<const char*>(data), size),
                               kNames);

  std::string error;
  std::optional<lb::report::RunFolder> folder;
  try {
    folder = lb::report::load_run_folder(dir.string(), &error);
  } catch (const std::exception& e) {
    lb::fuzz::invariant_failed(e.what());
  }
  if (!folder) {
    if (error.empty()) lb::fuzz::invariant_failed("a run folder refused without a reason");
    return 0;
  }
  std::vector<std::string> lanes;
  try {
    lanes = folder->lane_ids();
  } catch (const std::exception& e) {
    lb::fuzz::invariant_failed(e.what());
  }
  try {
    const lb::report::GateTable table = lb::report::build_gate_table(
        folder->record, lanes, &folder->reviews, &folder->artifacts, &folder->sampled_reviews);
    (void)lb::report::gate_table_to_json(table);
  } catch (const std::exception&) {
  }
  try {
    const lb::report::ReportModel model = lb::report::build_report_model(*folder);
    (void)lb::report::render_markdown(model);
    (void)lb::report::render_html(model);
    std::string csv = lb::report::requests_csv_header();
    lb::report::append_requests_csv_rows(folder->requests, csv);
  } catch (const std::exception&) {
  }
  try {
    for (const auto& file : lb::interop::export_benchmark_reports(dir.string()).files)
      (void)file.report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const std::exception&) {
  }
  return 0;
}
