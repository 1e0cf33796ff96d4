// lanebench-cli: headless runs, comparisons and probes. Exit codes: 0 ok, 1 a gate failed or a
// blocker exists, 2 usage or input error, 3 a lane's server did not answer its probe (run).
#include <CLI/CLI.hpp>

#include <iostream>

#include "commands.h"
#include "report_pdf/gui_application.h"
#include "sim_lanes.h"

int main(int argc, char** argv) {
  lb::report_pdf::provide_runtime_dir_at_startup();  // before any thread: it sets a variable
  CLI::App app{"LaneBench headless workbench: measure, compare and qualify LLM serving lanes",
               "lanebench-cli"};
  app.set_version_flag("--version", std::string("lanebench-cli ") + LANEBENCH_VERSION);
  app.require_subcommand(1);
  int exit_code = 0;
  lb::cli::register_sim_lanes();
  lb::cli::add_run_command(app, exit_code);
  lb::cli::add_probe_command(app, exit_code);
  lb::cli::add_compare_command(app, exit_code);
  lb::cli::add_verify_command(app, exit_code);
  lb::cli::add_report_command(app, exit_code);
  lb::cli::add_import_command(app, exit_code);
  lb::cli::add_export_command(app, exit_code);
  lb::cli::add_prompts_command(app, exit_code);
  lb::cli::add_merge_command(app, exit_code);
  lb::cli::add_fleet_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  return exit_code;
}
