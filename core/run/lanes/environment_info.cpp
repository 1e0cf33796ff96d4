#include "core/run/lanes/environment_info.h"

#include <sys/utsname.h>

#include <ctime>

#include "core/metrics/prometheus_text.h"
#include "core/metrics/server_counters.h"
#include "core/plan/key_transport.h"

namespace lb::run {

std::string utc_now_iso8601() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

nlohmann::json client_environment_json(const std::string& client_version) {
  nlohmann::json j;
  j["client"] = {{"name", "lanebench"},
                 {"version", client_version},
                 {"compiler", std::string("g++ ") + __VERSION__}};
  utsname u{};
  if (uname(&u) == 0)
    j["os"] = {{"sysname", u.sysname},
               {"release", u.release},
               {"version", u.version},
               {"machine", u.machine}};
  return j;
}

nlohmann::json lane_environment_json(const LaneRuntime& lane) {
  nlohmann::json j;
  j["base_url"] = lane.plan.base_url;
  if (lane.plan.is_sim()) j["served_at"] = lane.endpoint.api_base;
  j["model"] = lane.endpoint.model;
  j["probe"] = lane.probe.to_json();
  j["tls"] = {{"verification", lane.plan.insecure ? "DISABLED (insecure)" : "enabled"},
              {"ca_bundle", lane.plan.ca_bundle}};
  if (!lane.plan.api_key_env.empty()) {
    j["api_key_env"] = lane.plan.api_key_env;
    // Only reachable with allow_key_over_http (plan/key_transport.h); the report says so.
    if (plan::key_goes_over_plain_http(lane.plan))
      j["key_over_plain_http_to"] = plan::url_host(lane.plan.base_url);
  }
  if (lane.probe.metrics_available) {
    const auto counters =
        metrics::extract_server_counters(metrics::parse_prometheus_text(lane.probe.metrics_text));
    nlohmann::json cache;
    if (counters.num_gpu_blocks) cache["num_gpu_blocks"] = *counters.num_gpu_blocks;
    if (counters.block_size) cache["block_size"] = *counters.block_size;
    if (counters.kv_capacity_tokens) cache["kv_capacity_tokens"] = *counters.kv_capacity_tokens;
    if (!counters.cache_dtype.empty()) cache["cache_dtype"] = counters.cache_dtype;
    if (counters.prefix_caching_enabled)
      cache["prefix_caching_enabled"] = *counters.prefix_caching_enabled;
    if (auto w = metrics::kv_windows(counters, lane.probe.max_context_tokens()))
      cache["kv_windows"] = *w;
    j["cache_config"] = cache.is_null() ? nlohmann::json::object() : cache;
  }
  const auto& n = lane.plan.notes;
  nlohmann::json notes = nlohmann::json::object();
  if (!n.weights.empty()) notes["weights"] = n.weights;
  if (!n.kv_cache.empty()) notes["kv_cache"] = n.kv_cache;
  if (!n.spec.empty()) notes["spec"] = n.spec;
  if (n.prefix_caching) notes["prefix_caching"] = *n.prefix_caching;
  if (!n.engine_version.empty()) notes["engine_version"] = n.engine_version;
  if (!n.text.empty()) notes["text"] = n.text;
  j["notes"] = notes;
  return j;
}

nlohmann::json environment_json(const std::vector<LaneRuntime>& lanes,
                                const std::string& client_version) {
  nlohmann::json j = client_environment_json(client_version);
  j["created_at"] = utc_now_iso8601();
  nlohmann::json out = nlohmann::json::object();
  for (const auto& lane : lanes) out[lane.plan.id] = lane_environment_json(lane);
  j["lanes"] = out;
  return j;
}

}  // namespace lb::run
