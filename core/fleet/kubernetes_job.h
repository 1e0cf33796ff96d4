#pragma once
// `lanebench-cli fleet k8s`: a plan's shards as a Kubernetes Indexed Job, with the plan in a
// ConfigMap, the results on a PersistentVolumeClaim, and a merge Job (docs/fleet.md, "Kubernetes").
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::fleet {

struct KubernetesOptions {
  std::string name;          // object name prefix; "" = "lanebench-" + the plan's name
  std::string image;         // an image with lanebench-cli on its PATH
  std::string ns;            // namespace; "" = the context's
  int64_t gpus_per_pod = 0;  // nvidia.com/gpu per shard
  std::string pvc;           // an existing claim for the results; "" = write one
  std::string storage = "10Gi";
  std::string queue;                  // Kueue LocalQueue; "" = none
  std::string secret;                 // Secret holding the lanes' api_key_env variables; "" = none
  std::vector<std::string> key_envs;  // those variables (the plan's api_key_env names)
  bool allow_launch = false;
  bool partial_merge = false;
};

struct KubernetesManifests {
  nlohmann::json config_map;  // the plan
  nlohmann::json pvc;         // null when an existing claim is used
  nlohmann::json shards_job;  // Indexed, completions = parallelism = shards
  nlohmann::json merge_job;
};

// PLAN_TEXT is plan.json's text, PLAN_NAME its name. False with *why for a value Kubernetes would
// refuse (a name that is not a DNS label, no image).
bool kubernetes_manifests(const KubernetesOptions& options, const std::string& plan_text,
                          const std::string& plan_name, int64_t shard_count,
                          KubernetesManifests* out, std::string* why);

// The exit code of "the plan is not valid" (lanebench-cli's usage and input errors), on which the
// Job fails at once instead of retrying.
inline constexpr int kPlanInvalidExitCode = 2;

}  // namespace lb::fleet
