// `lanebench-cli run PLAN.json (--out DIR | --into RUN) [--json] [--allow-env NAME]...
// [--allow-launch] [--shard I/N [--split-sync DIR]]`: runs a plan (or one shard of it) and leaves a
// run folder, or adds the plan's experiments to an existing run.
#include <CLI/CLI.hpp>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "core/net/printable_text.h"
#include "core/plan/api_key_source.h"
#include "core/plan/plan.h"
#include "core/plan/sweep_expansion.h"
#include "core/run/plan_runner.h"
#include "core/run/shard_selection.h"
#include "progress_sink.h"
#include "results_table.h"
#include "stop_signal.h"

namespace lb::cli {
namespace {

struct RunArgs {
  std::string plan_path;
  std::string out_dir;  // --out, or --into's run folder
  bool append = false;  // --into
  bool json = false;
  std::vector<std::string> allowed_envs;  // api_key_env names the user vouches for
  bool allow_launch = false;              // the plan may start the servers it names
  std::string shard;                      // --shard I/N or auto/N; "" = the whole plan
  std::string split_sync;                 // where a split lane's clients meet; "" = --out's folder
  bool blockers_ok = false;  // exit 0 when the run finished with blockers (for schedulers)
};

// A plan that starts programs runs only with --allow-launch; without it, the refusal shows each
// command exactly as it would run ({port} is the free loopback port picked at start).
bool launch_allowed(const RunArgs& args, const plan::Plan& plan) {
  if (!plan.launches_servers() || args.allow_launch) return true;
  std::cerr << "lanebench-cli run: this plan starts servers; run it with --allow-launch if you "
               "trust these commands:\n";
  for (const auto& lane : plan::expand_sweep(plan).plan.lanes)
    if (lane.launch)
      std::cerr << "  " << net::printable_line(lane.id) << ": "
                << net::printable_line(plan::display_command(*lane.launch)) << '\n';
  return false;
}

void print_outcome(const RunArgs& args, const run::RunResult& result) {
  for (const auto& e : result.errors)
    std::cerr << "lanebench-cli run: " << net::printable_text(e) << '\n';
  if (result.interrupted)
    std::cerr << "lanebench-cli run: interrupted; kept " << result.requests_written
              << " finished requests in " << args.out_dir << '\n';
  record::FileFields fields("summary.json");
  const std::string table =
      result.summary.is_object()
          ? format_results_table(record::read_run_summary(result.summary, fields))
          : std::string();
  if (args.json) {
    nlohmann::json out = {{"exit_code", result.exit_code},
                          {"run_dir", args.out_dir},
                          {"interrupted", result.interrupted},
                          {"errors", result.errors},
                          {"requests_written", result.requests_written},
                          {"summary", result.summary}};
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    if (!table.empty()) std::cerr << net::printable_text(table);
  } else if (!table.empty()) {
    std::cout << net::printable_text(table) << "run folder: " << args.out_dir << '\n';
  }
}

int run_plan_command(const RunArgs& args) {
  auto parsed = plan::load_plan_file(args.plan_path);
  if (!parsed.ok()) {
    std::cerr << "lanebench-cli run: the plan is not valid:\n"
              << net::printable_text(parsed.error_text()) << '\n';
    return run::kExitInput;
  }
  if (!launch_allowed(args, *parsed.plan)) return run::kExitInput;
  std::string why;
  std::optional<run::ShardSpec> shard;
  if (!args.shard.empty()) {
    shard = run::parse_shard_spec(args.shard, plan::Environment::of_process(), &why);
    if (!shard) {
      std::cerr << "lanebench-cli run: " << net::printable_text(why) << '\n';
      return run::kExitInput;
    }
  }
  // A shard's folder may hold the same shard from an earlier try (the runner decides).
  if (!args.append && !shard && !run::run_folder_usable(args.out_dir, &why)) {
    std::cerr << "lanebench-cli run: --out: " << net::printable_text(why) << '\n';
    return run::kExitInput;
  }
  const std::atomic<bool>& stop = install_stop_signal_handlers();
  ProgressSink sink;
  run::RunOptions options;
  options.out_dir = args.out_dir;
  options.append = args.append;
  options.client_version = LANEBENCH_VERSION;
  options.allow_launch = args.allow_launch;
  options.shard = shard;
  options.split_sync_dir = args.split_sync;
  // A lane's api_key_env is sent only where the user said so, whatever the variable's name.
  for (const std::string& name : args.allowed_envs)
    options.environment = options.environment.allowing_key(name);
  run::PlanRunner runner(std::move(*parsed.plan), options, sink);
  run::RunResult result = runner.run(stop);
  sink.finish();
  print_outcome(args, result);
  // Blockers alone (no error of the run itself) are a finding the run folder records.
  if (args.blockers_ok && result.exit_code == run::kExitFailed && result.errors.empty()) {
    std::cerr << "lanebench-cli run: finished with blockers (recorded in the run folder); exit 0 "
                 "as --blockers-ok asks\n";
    return run::kExitOk;
  }
  return result.exit_code;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "run a plan against its lanes and write a run folder");
  cmd->add_option("plan", args->plan_path, "plan file (JSON)")->required();
  auto* out =
      cmd->add_option("--out,-o", args->out_dir, "run folder to create (must be new or empty)");
  auto* into = cmd->add_option("--into", args->out_dir,
                               "add the plan's experiments to this existing run folder (lanes "
                               "the run knows must be the same servers; a taken experiment name "
                               "gets -2, -3, ...)");
  out->excludes(into);
  into->excludes(out);
  cmd->add_flag("--json", args->json, "print the result as JSON on stdout");
  cmd->add_option("--allow-env", args->allowed_envs,
                  "let a lane's api_key_env send this variable's value to the lane's server; "
                  "without it no variable is sent, whatever its name (repeatable)")
      ->type_name("NAME");
  cmd->add_flag("--allow-launch", args->allow_launch,
                "let the plan start the server commands of its lanes' launch blocks");
  cmd->add_option("--shard", args->shard,
                  "run one shard of the plan: I/N (0-based), or auto/N with the index from "
                  "SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX; a plan has one shard per lane "
                  "(each sweep value a lane, each client of a split lane); merge the shards with "
                  "lanebench-cli merge")
      ->type_name("I/N");
  cmd->add_option("--split-sync", args->split_sync,
                  "with --shard, for a client of the plan's split lane: a folder every client of "
                  "the lane sees (a shared file system), where they meet at each phase's start; "
                  "default: the folder that --out is in")
      ->type_name("DIR");
  cmd->add_flag("--blockers-ok", args->blockers_ok,
                "exit 0, not 1, when the run finished and only found blockers (a failed gate, a "
                "flipped fact); for schedulers, where a failed task is retried or fails its job");
  cmd->callback([args, into, out, &exit_code] {
    if (out->count() == 0 && into->count() == 0)
      throw CLI::RequiredError("--out (a new run folder) or --into (an existing run)");
    args->append = into->count() > 0;
    exit_code = run_plan_command(*args);
  });
}

}  // namespace lb::cli
