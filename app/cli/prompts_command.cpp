// `lanebench-cli prompts export SET --out DIR`: a prompt set (a file or a built-in one) written
// out as DIR/prompts.jsonl with its media as files under DIR/media/, and DIR/media.json
// describing each file (plan/prompt_set_export.h). The JSONL loads back as the same set, so a
// built-in set's generated images and videos can be looked at, edited or fed to other tools.
// Exit 0 ok, 2 input error.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <string>

#include "commands.h"
#include "core/plan/prompt_set.h"
#include "core/plan/prompt_set_export.h"

namespace lb::cli {
namespace {

struct PromptsExportArgs {
  std::string set;
  std::string out_dir;
};

int run_prompts_export(const PromptsExportArgs& args) {
  const plan::PromptSetResult loaded = plan::load_prompt_set(args.set);
  if (!loaded.ok()) {
    std::cerr << "prompts export: " << loaded.error_text() << '\n';
    return 2;
  }
  const plan::PromptSetExport written = plan::export_prompt_set(*loaded.set, args.out_dir);
  if (!written.ok()) {
    std::cerr << "prompts export: " << written.error << '\n';
    return 2;
  }
  std::cerr << "wrote " << loaded.set->prompts.size() << " prompt(s) to " << written.jsonl_path
            << " and " << written.media_files << " media file(s), described in "
            << written.manifest_path << '\n';
  return 0;
}

}  // namespace

void add_prompts_command(CLI::App& app, int& exit_code) {
  CLI::App* prompts = app.add_subcommand("prompts", "Prompt sets");
  prompts->require_subcommand(1);
  auto args = std::make_shared<PromptsExportArgs>();
  CLI::App* cmd = prompts->add_subcommand(
      "export", "Write a prompt set as JSONL with its media as files (and media.json)");
  cmd->add_option("set", args->set, "prompt set: a JSONL file or builtin:NAME")->required();
  cmd->add_option("--out", args->out_dir, "output folder")->required();
  cmd->callback([args, &exit_code] { exit_code = run_prompts_export(*args); });
}

}  // namespace lb::cli
