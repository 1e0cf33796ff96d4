#include "core/fleet/kubernetes_job.h"

#include <algorithm>
#include <cctype>

namespace lb::fleet {
namespace {

using json = nlohmann::json;

constexpr const char* kPlanMount = "/etc/lanebench";
constexpr const char* kResultsMount = "/results";

// A DNS-1123 label from free text: lower-case letters, digits and '-', at most MAX characters,
// starting and ending with a letter or digit.
std::string dns_label(const std::string& text, size_t max) {
  std::string out;
  for (char c : text) {
    const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool ok = std::isalnum(static_cast<unsigned char>(l)) != 0;
    if (ok)
      out += l;
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  if (out.size() > max) out.resize(max);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

bool is_dns_label(const std::string& s, size_t max) {
  return !s.empty() && s.size() <= max && dns_label(s, max) == s;
}

json metadata(const KubernetesOptions& o, const std::string& name) {
  json m = {{"name", name}, {"labels", {{"app.kubernetes.io/name", "lanebench"}}}};
  if (!o.ns.empty()) m["namespace"] = o.ns;
  if (!o.queue.empty()) m["labels"]["kueue.x-k8s.io/queue-name"] = o.queue;
  return m;
}

json volumes(const std::string& config_map, const std::string& claim) {
  return json::array({{{"name", "plan"}, {"configMap", {{"name", config_map}}}},
                      {{"name", "results"}, {"persistentVolumeClaim", {{"claimName", claim}}}}});
}

json mounts() {
  return json::array({{{"name", "plan"}, {"mountPath", kPlanMount}, {"readOnly", true}},
                      {{"name", "results"}, {"mountPath", kResultsMount}}});
}

// The lanes' API keys from the Secret, by the variable names the plan gives.
json key_env(const KubernetesOptions& o) {
  json env = json::array();
  if (o.secret.empty()) return env;
  for (const std::string& name : o.key_envs)
    env.push_back(
        {{"name", name}, {"valueFrom", {{"secretKeyRef", {{"name", o.secret}, {"key", name}}}}}});
  return env;
}

json job(const KubernetesOptions& o, const std::string& name, const json& container,
         const std::string& config_map, const std::string& claim) {
  return {{"apiVersion", "batch/v1"},
          {"kind", "Job"},
          {"metadata", metadata(o, name)},
          {"spec",
           {{"backoffLimit", 0},
            {"template",
             {{"metadata", {{"labels", {{"app.kubernetes.io/name", "lanebench"}}}}},
              {"spec",
               {{"restartPolicy", "Never"},
                {"containers", json::array({container})},
                {"volumes", volumes(config_map, claim)}}}}}}}};
}

}  // namespace

bool kubernetes_manifests(const KubernetesOptions& o, const std::string& plan_text,
                          const std::string& plan_name, int64_t shard_count,
                          KubernetesManifests* out, std::string* why) {
  const std::string base = o.name.empty() ? dns_label("lanebench-" + plan_name, 40) : o.name;
  if (!is_dns_label(base, 40)) {
    *why = "--name must be lower-case letters, digits and '-' (at most 40), not \"" + base + "\"";
    return false;
  }
  if (o.image.empty() || o.image.find_first_of(" \t\n\"'") != std::string::npos) {
    *why =
        "--image: an image with lanebench-cli on its PATH is needed (e.g. "
        "registry.example.com/lanebench:0.1.0)";
    return false;
  }
  for (const std::string* s : {&o.ns, &o.pvc, &o.queue, &o.secret})
    if (!s->empty() && !is_dns_label(*s, 63)) {
      *why = "\"" + *s + "\" is not a Kubernetes name (lower-case letters, digits and '-')";
      return false;
    }
  const std::string config_map = base + "-plan";
  const std::string claim = o.pvc.empty() ? base + "-results" : o.pvc;
  out->config_map = {{"apiVersion", "v1"},
                     {"kind", "ConfigMap"},
                     {"metadata", metadata(o, config_map)},
                     {"data", {{"plan.json", plan_text}}}};
  out->pvc = nullptr;
  if (o.pvc.empty())
    out->pvc = {{"apiVersion", "v1"},
                {"kind", "PersistentVolumeClaim"},
                {"metadata", metadata(o, claim)},
                {"spec",
                 {{"accessModes", {"ReadWriteMany"}},
                  {"resources", {{"requests", {{"storage", o.storage}}}}}}}};
  const std::string count = std::to_string(shard_count);
  json args = {"run",     std::string(kPlanMount) + "/plan.json",
               "--shard", "auto/" + count,
               "--out",   std::string(kResultsMount) + "/shards/shard-$(JOB_COMPLETION_INDEX)"};
  args.push_back("--blockers-ok");  // a blocker is a finding, not a failed pod to retry
  if (o.allow_launch) args.push_back("--allow-launch");
  for (const std::string& name : o.key_envs)
    if (!o.secret.empty()) args.insert(args.end(), {"--allow-env", name});
  json env = key_env(o);
  // The index as an env variable of the container, so $(JOB_COMPLETION_INDEX) expands in args.
  env.push_back(
      {{"name", "JOB_COMPLETION_INDEX"},
       {"valueFrom",
        {{"fieldRef",
          {{"fieldPath", "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}}}}});
  json shard = {{"name", "shard"}, {"image", o.image}, {"command", {"lanebench-cli"}},
                {"args", args},    {"env", env},       {"volumeMounts", mounts()}};
  if (o.gpus_per_pod > 0) shard["resources"] = {{"limits", {{"nvidia.com/gpu", o.gpus_per_pod}}}};
  out->shards_job = job(o, base + "-shards", shard, config_map, claim);
  json& spec = out->shards_job["spec"];
  spec["completionMode"] = "Indexed";
  spec["completions"] = shard_count;
  // All at once: a shard's clock anchor and its lane's server start together with the others'.
  spec["parallelism"] = shard_count;
  spec["backoffLimit"] = shard_count;  // a pod lost to its node may run again
  spec["podFailurePolicy"] = {
      {"rules",
       {{{"action", "FailJob"},
         {"onExitCodes",
          {{"containerName", "shard"}, {"operator", "In"}, {"values", {kPlanInvalidExitCode}}}}},
        {{"action", "Ignore"},
         {"onPodConditions", {{{"type", "DisruptionTarget"}, {"status", "True"}}}}}}}};
  // The merge lists the shards' folders itself: a missing one is named, not globbed away.
  std::string merge = "set -eu; shards=''; for i in $(seq 0 " + std::to_string(shard_count - 1) +
                      "); do d=" + kResultsMount + "/shards/shard-$i; " +
                      "if [ -d \"$d\" ]; then shards=\"$shards $d\"; fi; done; " +
                      "exec lanebench-cli merge $shards --out " + kResultsMount +
                      "/run --blockers-ok" + (o.partial_merge ? " --partial" : "");
  json merger = {{"name", "merge"},
                 {"image", o.image},
                 {"command", {"/bin/sh", "-c", merge}},
                 {"volumeMounts", mounts()}};
  out->merge_job = job(o, base + "-merge", merger, config_map, claim);
  return true;
}

}  // namespace lb::fleet
