// `lanebench-cli export RUN --format vllm [--lane ID] [-o FILE]`: a run's results in the shape
// `vllm bench serve --save-result --save-detailed` writes, one object per experiment, lane and
// phase (one per line when there are several, as --append-result writes).
// `lanebench-cli export RUN --format br0.2 [--lane ID] -o DIR`: one Benchmark Report v0.2 file
// per experiment, lane and phase in DIR (docs/interop.md). Exit 0 ok, 2 input error.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <string>

#include "commands.h"
#include "core/files/confined_write.h"
#include "core/interop/benchmark_report_export.h"
#include "core/interop/vllm_export.h"
#include "core/record/atomic_file.h"

namespace lb::cli {
namespace {

struct ExportArgs {
  std::string run_dir;
  std::string format = "vllm";
  std::string lane;
  std::string output;
};

// Benchmark Report v0.2: one file per phase, written into DIR without leaving it.
int run_benchmark_report_export(const ExportArgs& args) {
  if (args.output.empty() || args.output == "-") {
    std::cerr << "export: --format br0.2 writes one file per phase: name a folder with -o DIR\n";
    return 2;
  }
  const interop::BenchmarkReports result =
      interop::export_benchmark_reports(args.run_dir, args.lane);
  if (!result.ok) {
    std::cerr << "export: " << result.error << '\n';
    return 2;
  }
  for (const interop::BenchmarkReportFile& file : result.files) {
    std::string error;
    const std::string text =
        file.report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    if (!files::write_confined(args.output, file.name, text, &error)) {
      std::cerr << "export: " << error << '\n';
      return 2;
    }
  }
  std::cerr << "wrote " << result.files.size() << " Benchmark Report v0.2 file(s) to "
            << args.output << '\n';
  return 0;
}

int run_export(const ExportArgs& args) {
  if (args.format == "br0.2") return run_benchmark_report_export(args);
  if (args.format != "vllm") {
    std::cerr << "export: --format must be vllm or br0.2 (got " << args.format << ")\n";
    return 2;
  }
  const interop::VllmExport result = interop::export_vllm_results(args.run_dir, args.lane);
  if (!result.ok) {
    std::cerr << "export: " << result.error << '\n';
    return 2;
  }
  const std::string text = interop::format_vllm_export(result.results);
  if (args.output.empty() || args.output == "-") {
    std::cout << text;
    return 0;
  }
  std::string error;
  if (!record::write_file_atomically(args.output, text, &error)) {
    std::cerr << "export: " << error << '\n';
    return 2;
  }
  std::cerr << "wrote " << result.results.size() << " vLLM result object(s) to " << args.output
            << '\n';
  return 0;
}

}  // namespace

void add_export_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ExportArgs>();
  CLI::App* cmd =
      app.add_subcommand("export",
                         "Write a run's results as vLLM bench serve result JSON or as Benchmark "
                         "Report v0.2 files");
  cmd->add_option("run", args->run_dir, "run folder")->required();
  cmd->add_option("--format", args->format,
                  "output format: vllm (the default) or br0.2 (one file per phase)");
  cmd->add_option("--lane", args->lane, "only this lane (default: every lane)");
  cmd->add_option("-o,--output", args->output,
                  "output file (default: standard output); the folder for br0.2");
  cmd->callback([args, &exit_code] { exit_code = run_export(*args); });
}

}  // namespace lb::cli
