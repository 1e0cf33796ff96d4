// `lanebench-cli fleet slurm PLAN --out DIR [...] [--submit]` writes (and submits) a plan's shards
// as a Slurm job array with a merge job after it; `lanebench-cli fleet status DIR` shows where
// they stand (docs/fleet.md).
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <string>

#include "commands.h"
#include "core/fleet/slurm_batch.h"
#include "core/net/printable_text.h"
#include "core/plan/plan.h"
#include "core/plan/sweep_expansion.h"
#include "core/run/plan_runner.h"
#include "core/run/shard_selection.h"

namespace lb::cli {
namespace {

namespace fs = std::filesystem;

struct SlurmArgs {
  fleet::SlurmOptions options;
  bool submit = false;
};

int fail(const std::string& why) {
  std::cerr << "lanebench-cli fleet: " << net::printable_text(why) << '\n';
  return run::kExitInput;
}

int slurm_command(SlurmArgs args) {
  fleet::SlurmOptions& o = args.options;
  std::error_code ec;
  o.plan_path = fs::absolute(o.plan_path, ec).lexically_normal().string();
  o.out_dir = fs::absolute(o.out_dir, ec).lexically_normal().string();
  if (!o.out_dir.empty() && o.out_dir.back() == '/') o.out_dir.pop_back();
  if (o.cli_path.empty()) o.cli_path = fs::read_symlink("/proc/self/exe", ec).string();
  auto parsed = plan::load_plan_file(o.plan_path);
  if (!parsed.ok()) return fail("the plan is not valid:\n" + parsed.error_text());
  plan::Plan lanes = plan::expand_sweep(*parsed.plan).plan;
  const auto count = static_cast<int64_t>(lanes.lanes.size());
  std::string why;
  if (!run::keep_shard_lanes(lanes, {0, count}, &why)) return fail(why);
  if (parsed.plan->launches_servers() && !o.allow_launch)
    return fail("this plan starts servers; add --allow-launch if you trust its commands");
  if (!fleet::write_slurm_scripts(o, count, parsed.plan->name, &why)) return fail(why);
  std::cout << "wrote " << o.out_dir << "/shards.sbatch (" << count << " shards) and " << o.out_dir
            << "/merge.sbatch\n";
  if (!args.submit) {
    std::cout << "submit with: lanebench-cli fleet slurm ... --submit, or by hand:\n"
              << "  id=$(sbatch --parsable " << o.out_dir << "/shards.sbatch)\n"
              << "  sbatch --dependency=afterany:$id " << o.out_dir << "/merge.sbatch\n";
    return run::kExitOk;
  }
  fleet::SlurmSubmission ids;
  if (!fleet::submit_slurm(o.out_dir, &ids, &why)) {
    std::cerr << "lanebench-cli fleet: " << net::printable_text(why) << '\n';
    return run::kExitFailed;
  }
  std::cout << "shards: job array " << ids.shard_job << "\nmerge: job " << ids.merge_job
            << " (after the array)\nmerged run: " << o.out_dir
            << "/run\nstatus: lanebench-cli fleet status " << o.out_dir << '\n';
  return run::kExitOk;
}

}  // namespace

void add_fleet_command(CLI::App& app, int& exit_code) {
  auto* fleet_cmd = app.add_subcommand("fleet", "run a plan's shards on a cluster");
  fleet_cmd->require_subcommand(1);
  auto args = std::make_shared<SlurmArgs>();
  auto* slurm = fleet_cmd->add_subcommand(
      "slurm", "write a Slurm job array of the plan's shards and a merge job after it");
  slurm->add_option("plan", args->options.plan_path, "plan file (JSON)")->required();
  slurm
      ->add_option("--out,-o", args->options.out_dir,
                   "folder on the shared file system for the scripts, logs, shards and the "
                   "merged run")
      ->required();
  slurm->add_option("--partition,-p", args->options.partition, "Slurm partition");
  slurm->add_option("--gpus-per-task", args->options.gpus_per_task, "GPUs per shard (e.g. 1)");
  slurm->add_option("--time,-t", args->options.time_limit, "time limit per shard (e.g. 2:00:00)");
  slurm->add_option("--lanebench-cli", args->options.cli_path,
                    "lanebench-cli as the nodes see it (default: this program's path)");
  slurm->add_flag("--allow-launch", args->options.allow_launch,
                  "let each shard start its lane's server (the plan's launch blocks)");
  slurm
      ->add_option("--allow-env", args->options.allowed_envs,
                   "pass --allow-env NAME to each shard's run (repeatable)")
      ->type_name("NAME");
  slurm->add_flag("--partial-merge", args->options.partial_merge,
                  "the merge job merges the shards that finished (the run is marked partial)");
  slurm->add_flag("--submit", args->submit, "submit both with sbatch and print their job ids");
  slurm->callback([args, &exit_code] { exit_code = slurm_command(*args); });

  auto dir = std::make_shared<std::string>();
  auto* status = fleet_cmd->add_subcommand("status", "each shard's Slurm state and folder");
  status->add_option("dir", *dir, "the folder given to fleet slurm --out")->required();
  status->callback([dir, &exit_code] {
    std::cout << fleet::fleet_status(*dir);
    exit_code = run::kExitOk;
  });
}

}  // namespace lb::cli
