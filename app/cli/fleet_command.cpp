// `lanebench-cli fleet slurm PLAN --out DIR [...] [--submit]` writes (and submits) a plan's shards
// as a Slurm job array with a merge job after it; `lanebench-cli fleet status DIR` shows where
// they stand (docs/fleet.md).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "commands.h"
#include "core/files/confined_write.h"
#include "core/fleet/kubernetes_job.h"
#include "core/fleet/slurm_batch.h"
#include "core/net/printable_text.h"
#include "core/plan/plan.h"
#include "core/plan/sweep_expansion.h"
#include "core/run/plan_runner.h"
#include "core/run/shard_selection.h"

namespace lb::cli {
namespace {

namespace fs = std::filesystem;

struct ShardablePlan {
  plan::Plan plan;
  int64_t shards = 0;
};

// The plan at PATH and how many shards it runs as; nullopt with *why when it is not valid, cannot
// be sharded, or starts servers without ALLOW_LAUNCH.
std::optional<ShardablePlan> shardable_plan(const std::string& path, bool allow_launch,
                                            std::string* why) {
  auto parsed = plan::load_plan_file(path);
  if (!parsed.ok()) {
    *why = "the plan is not valid:\n" + parsed.error_text();
    return std::nullopt;
  }
  plan::Plan lanes = plan::expand_sweep(*parsed.plan).plan;
  const int64_t count = run::shard_count(lanes);
  if (!run::keep_shard_lanes(lanes, {0, count}, why)) return std::nullopt;
  if (parsed.plan->launches_servers() && !allow_launch) {
    *why = "this plan starts servers; add --allow-launch if you trust its commands";
    return std::nullopt;
  }
  return ShardablePlan{std::move(*parsed.plan), count};
}

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
  std::string why;
  const auto plan = shardable_plan(o.plan_path, o.allow_launch, &why);
  if (!plan) return fail(why);
  const int64_t count = plan->shards;
  if (!fleet::write_slurm_scripts(o, count, plan->plan.name, &why)) return fail(why);
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

// A trace, ShareGPT or prompt-set file (not a built-in set), which a pod sees only where the image
// or a volume puts it.
bool reads_a_file(const plan::Experiment& e) {
  return std::visit(
      [](const auto& p) {
        bool file = false;
        if constexpr (requires { p.path; }) file = !p.path.empty();
        if constexpr (requires { p.prompts; }) file = file || p.prompts.rfind("builtin:", 0) != 0;
        return file;
      },
      e.params);
}

struct K8sArgs {
  std::string plan_path;
  std::string out_dir;
  fleet::KubernetesOptions options;
};

int k8s_command(K8sArgs args) {
  std::string why;
  const auto shardable = shardable_plan(args.plan_path, args.options.allow_launch, &why);
  if (!shardable) return fail(why);
  const plan::Plan& plan = shardable->plan;
  const int64_t count = shardable->shards;
  for (const auto& lane : plan.lanes)
    if (!lane.api_key_env.empty() && lane.api_key_env.rfind("keyring:", 0) != 0 &&
        std::find(args.options.key_envs.begin(), args.options.key_envs.end(), lane.api_key_env) ==
            args.options.key_envs.end())
      args.options.key_envs.push_back(lane.api_key_env);
  if (!args.options.key_envs.empty() && args.options.secret.empty())
    return fail(
        "the plan's lanes read API keys from variables; name the Kubernetes Secret that "
        "holds them with --secret (its keys are the variables' names)");
  std::string plan_text;
  {
    std::ifstream in(args.plan_path, std::ios::binary);
    plan_text.assign(std::istreambuf_iterator<char>(in), {});
  }
  fleet::KubernetesManifests m;
  if (!fleet::kubernetes_manifests(args.options, plan_text, plan.name, count, &m, &why))
    return fail(why);
  auto write = [&](const char* name, const nlohmann::json& value) {
    return value.is_null() || files::write_confined(args.out_dir, name, value.dump(2) + "\n", &why);
  };
  if (!write("configmap.json", m.config_map) || !write("pvc.json", m.pvc) ||
      !write("shards-job.json", m.shards_job) || !write("merge-job.json", m.merge_job))
    return fail(why);
  const std::string shards = m.shards_job["metadata"]["name"].get<std::string>();
  const std::string d = args.out_dir;
  std::cout << "wrote " << d << "/configmap.json, " << (m.pvc.is_null() ? "" : "pvc.json, ")
            << "shards-job.json (" << count << " shards) and merge-job.json\n"
            << "apply:\n  kubectl apply -f " << d << "/configmap.json"
            << (m.pvc.is_null() ? "" : " -f " + d + "/pvc.json") << " -f " << d
            << "/shards-job.json\n  kubectl wait --for=condition=complete --timeout=24h job/"
            << shards << "  # or condition=failed\n  kubectl apply -f " << d << "/merge-job.json\n";
  for (const auto& e : plan.experiments)
    if (reads_a_file(e))
      std::cout << "note: experiment " << net::printable_line(e.name_or_kind())
                << " reads a file; the pods must see it at the same path\n";
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

  auto k8s = std::make_shared<K8sArgs>();
  auto* kube = fleet_cmd->add_subcommand(
      "k8s", "write a Kubernetes Indexed Job of the plan's shards, its ConfigMap and a merge Job");
  kube->add_option("plan", k8s->plan_path, "plan file (JSON)")->required();
  kube->add_option("--out,-o", k8s->out_dir, "folder for the manifests")->required();
  kube->add_option("--image", k8s->options.image, "image with lanebench-cli on its PATH")
      ->required();
  kube->add_option("--name", k8s->options.name, "object name prefix (default lanebench-PLAN)");
  kube->add_option("--namespace,-n", k8s->options.ns, "namespace of every object");
  kube->add_option("--gpus-per-pod", k8s->options.gpus_per_pod, "nvidia.com/gpu per shard")
      ->check(CLI::NonNegativeNumber);
  kube->add_option("--pvc", k8s->options.pvc,
                   "existing PersistentVolumeClaim (ReadWriteMany) for the results; default: "
                   "pvc.json asks for one");
  kube->add_option("--storage", k8s->options.storage, "size of the claim pvc.json asks for");
  kube->add_option("--queue", k8s->options.queue, "Kueue LocalQueue (gang admission)");
  kube->add_option("--secret", k8s->options.secret,
                   "Secret whose keys are the lanes' api_key_env variables");
  kube->add_flag("--allow-launch", k8s->options.allow_launch,
                 "let each shard start its lane's server (the plan's launch blocks)");
  kube->add_flag("--partial-merge", k8s->options.partial_merge,
                 "the merge Job merges the shards that finished (the run is marked partial)");
  kube->callback([k8s, &exit_code] { exit_code = k8s_command(*k8s); });

  auto dir = std::make_shared<std::string>();
  auto* status = fleet_cmd->add_subcommand("status", "each shard's Slurm state and folder");
  status->add_option("dir", *dir, "the folder given to fleet slurm --out")->required();
  status->callback([dir, &exit_code] {
    std::cout << fleet::fleet_status(*dir);
    exit_code = run::kExitOk;
  });
}

}  // namespace lb::cli
