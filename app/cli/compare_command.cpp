#include <CLI/CLI.hpp>

#include <iostream>

#include "commands.h"

namespace lb::cli {
void add_compare_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("compare", "compare (not available in this build)");
  cmd->allow_extras();
  cmd->callback([&exit_code] {
    std::cerr << "lanebench-cli: 'compare' is not available in this build\n";
    exit_code = 2;
  });
}
}  // namespace lb::cli
