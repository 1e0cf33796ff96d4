// `lanebench-cli report RUN [--format html,md,pdf,png,csv,json] [--out DIR]`: the qualification
// report of a run folder (default: every format, into RUN/report/). A run that was interrupted
// or killed still reports, marked incomplete. Exit 0: written; 2: the run folder is missing or
// unreadable, a format is unknown, or a file could not be written.
#include <CLI/CLI.hpp>

#include <QGuiApplication>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "core/report/report_writer.h"
#include "report_pdf/gui_application.h"
#include "report_pdf/pdf_report.h"

namespace lb::cli {
namespace {

struct ReportArgs {
  std::string run;
  std::string formats;
  std::string out;
};

int run_report(const ReportArgs& args) {
  std::set<std::string> formats;
  std::string error;
  if (!report::parse_report_formats(args.formats, formats, &error)) {
    std::cerr << "lanebench-cli report: " << error << "\n";
    return 2;
  }
  const auto folder = report::load_run_folder_for_report(args.run, &error);
  if (!folder) {
    std::cerr << "lanebench-cli report: " << error << "\n";
    return 2;
  }
  for (const auto& w : folder->warnings) std::cerr << "warning: " << w << "\n";
  const std::string out =
      args.out.empty() ? (std::filesystem::path(args.run) / "report").string() : args.out;
  report::ReportWriteResult result;
  try {
    const auto scrubber = report::PrivacyScrubber::for_run(*folder);
    report::ReportModel model = report::build_report_model(*folder);
    report::redact_model_secrets(model, scrubber);
    result = report::write_report_files(*folder, model, scrubber, out, formats);
    if (formats.count("pdf") || formats.count("png")) {
      // Headless: an offscreen QGuiApplication gives the drawing its fonts, no display needed.
      const auto app = report_pdf::ensure_gui_application();
      report_pdf::write_drawn_report_files(model, formats, out, result);
    }
  } catch (const nlohmann::json::exception& e) {
    // summary.json edited by hand into another shape
    std::cerr << "lanebench-cli report: " << args.run
              << " has a file of unexpected shape: " << e.what() << "\n";
    return 2;
  }
  for (const auto& name : result.written)
    if (name.rfind("texts/", 0) != 0 && name.rfind("charts/", 0) != 0)
      std::cout << (std::filesystem::path(out) / name).string() << "\n";
  if (!folder->complete) std::cout << "the run is incomplete: the report says so\n";
  for (const auto& e : result.errors) std::cerr << "lanebench-cli report: " << e << "\n";
  return result.ok() ? 0 : 2;
}

}  // namespace

void add_report_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "report",
      "Write the qualification report of a run folder: HTML, Markdown, PDF, chart PNGs, "
      "requests CSV and "
      "qualification-summary.json (no URLs, hosts, IPs, keys, user names or paths)");
  cmd->add_option("run", args->run, "run folder (as written by lanebench-cli run)")->required();
  cmd->add_option("--format", args->formats,
                  "comma-separated: html,md,pdf,png,csv,json (default: all)");
  cmd->add_option("--out", args->out, "output folder (default: RUN/report)");
  cmd->callback([args, &exit_code] { exit_code = run_report(*args); });
}

}  // namespace lb::cli
