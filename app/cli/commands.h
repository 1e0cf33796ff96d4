#pragma once
// Each lanebench-cli subcommand registers itself on the CLI11 app. The callback it installs
// stores the process exit code: 0 ok, 1 a gate failed or a blocker exists, 2 usage or input error.
namespace CLI {
class App;
}

namespace lb::cli {
void add_run_command(CLI::App& app, int& exit_code);
void add_probe_command(CLI::App& app, int& exit_code);
void add_compare_command(CLI::App& app, int& exit_code);
void add_verify_command(CLI::App& app, int& exit_code);
void add_report_command(CLI::App& app, int& exit_code);
void add_import_command(CLI::App& app, int& exit_code);
void add_export_command(CLI::App& app, int& exit_code);
void add_prompts_command(CLI::App& app, int& exit_code);
void add_merge_command(CLI::App& app, int& exit_code);
void add_fleet_command(CLI::App& app, int& exit_code);
}  // namespace lb::cli
