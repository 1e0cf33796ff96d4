// `lanebench-cli import FILE [--format vllm|guidellm|auto] (--out NEWRUN | --into RUN)
// [--lane NAME] [--experiment NAME]`: another tool's results as lane imported:<NAME> of a run,
// so they chart and tabulate beside LaneBench's own. Exit 0 ok, 2 usage or input error.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <string>

#include "commands.h"
#include "core/interop/run_import.h"

namespace lb::cli {
namespace {

struct ImportArgs {
  interop::ImportOptions options;
  std::string format = "auto";
};

int run_import(ImportArgs& args) {
  if (!interop::parse_import_format(args.format, &args.options.format)) {
    std::cerr << "import: --format must be vllm, guidellm or auto (got " << args.format << ")\n";
    return 2;
  }
  const interop::ImportOutcome out = interop::import_into_run(args.options);
  if (out.exit_code != 0) {
    std::cerr << "import: " << out.error << '\n';
    return out.exit_code;
  }
  const std::string& dir =
      args.options.out_dir.empty() ? args.options.into_dir : args.options.out_dir;
  std::cout << "imported " << out.requests << " requests from " << out.tool << " as lane "
            << out.lane_id << " of experiment " << out.experiment << " in " << dir << "\nphases:";
  for (const auto& p : out.phases) std::cout << ' ' << p;
  std::cout << '\n';
  return 0;
}

}  // namespace

void add_import_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "import", "Import a vLLM bench serve result or a GuideLLM report as lane imported:NAME");
  cmd->add_option("file", args->options.file, "the tool's result JSON")->required();
  cmd->add_option("--format", args->format, "vllm, guidellm or auto (default: recognise it)");
  auto* out = cmd->add_option("--out", args->options.out_dir, "write a new run folder");
  auto* into =
      cmd->add_option("--into", args->options.into_dir, "add the lane to this existing run folder");
  out->excludes(into);
  cmd->add_option("--lane", args->options.lane_name,
                  "lane name; the lane id is imported:NAME (default: the format name)");
  cmd->add_option("--experiment", args->options.experiment,
                  "with --into: the experiment to join (default: the run's throughput one)");
  cmd->callback([args, &exit_code] { exit_code = run_import(*args); });
}

}  // namespace lb::cli
