#include <CLI/CLI.hpp>

#include <iostream>

#include "commands.h"

namespace lb::cli {
void add_probe_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("probe", "probe (not available in this build)");
  cmd->allow_extras();
  cmd->callback([&exit_code] {
    std::cerr << "lanebench-cli: 'probe' is not available in this build\n";
    exit_code = 2;
  });
}
}  // namespace lb::cli
