#include "core/run/lanes/lane_preparation.h"

#include <algorithm>

#include "core/plan/key_transport.h"
#include "core/run/launch/sim_lane_registry.h"

namespace lb::run {
namespace {

// Fills endpoint, sim handle and key; returns an error text or "".
std::string resolve_endpoint(const plan::Lane& lane, const plan::Environment& env,
                             LaneRuntime& out) {
  std::string base_url = lane.base_url;
  std::string sim_spec;
  if (is_sim_base_url(lane.base_url, &sim_spec)) {
    SimLaneResult sim = start_sim_lane(sim_spec);
    if (!sim.error.empty()) return "lane " + lane.id + ": " + sim.error;
    out.sim_handle = std::move(sim.handle);
    base_url = sim.base_url;
  }
  out.endpoint = endpoint_from_base_url(lane.id, base_url);
  out.endpoint.tls.verify = !lane.insecure;
  out.endpoint.tls.ca_bundle_path = lane.ca_bundle;
  out.endpoint.http_version = lane.http_version;
  if (!lane.api_key_env.empty()) {
    if (const std::string refusal = plan::key_transport_refusal(lane); !refusal.empty())
      return "lane " + lane.id + ": " + refusal;
    std::string why;
    auto key = plan::resolve_api_key(lane, env, &why);
    if (!key) return "lane " + lane.id + ": " + why;
    set_api_key(out.endpoint, *key);
  }
  return {};
}

// Probes and resolves the model; returns an error text or "".
std::string probe_lane(const plan::Lane& lane, net::StreamClient& client, RunSink& sink,
                       LaneRuntime& out) {
  LaneProbe prober(client);
  out.probe = prober.probe(out.endpoint);
  if (!out.probe.reachable)
    return "lane " + lane.id + ": cannot use " + out.endpoint.api_base + ": " + out.probe.error;
  if (lane.is_sim() && out.probe.kind == ServerKind::Ollama) {
    // A simulator lane serving as Ollama (api=ollama) is taken for what it serves.
    out.probe.kind_evidence = "started from the plan's sim: base_url, serving as Ollama";
  } else if (lane.is_sim()) {
    // The simulator speaks vLLM's dialect byte for byte; what it really is comes from the plan.
    out.probe.kind = ServerKind::LanebenchSim;
    out.probe.kind_evidence = "started from the plan's sim: base_url";
  }
  if (lane.model.empty() || lane.model == "auto") {
    if (out.probe.models.empty()) return "lane " + lane.id + ": /v1/models lists no model";
    out.endpoint.model = out.probe.models.front().id;
  } else {
    out.endpoint.model = lane.model;
    const auto& models = out.probe.models;
    if (std::none_of(models.begin(), models.end(),
                     [&](const ModelInfo& m) { return m.id == lane.model; }))
      sink.on_message(MessageLevel::Warning,
                      "lane " + lane.id + ": model " + lane.model + " is not listed by /v1/models");
  }
  std::string line = "lane " + lane.id + ": " + to_string(out.probe.kind) + " " +
                     out.probe.version + ", model " + out.endpoint.model;
  if (out.probe.max_context_tokens() > 0)
    line += ", max context " + std::to_string(out.probe.max_context_tokens());
  if (lane.insecure) line += " [TLS verification DISABLED]";
  sink.on_message(MessageLevel::Info, line);
  return {};
}

}  // namespace

LanePreparation prepare_lanes(const plan::Plan& plan, net::StreamClient& client, RunSink& sink,
                              const std::atomic<bool>& stop, const plan::Environment& env) {
  LanePreparation prep;
  for (const auto& lane : plan.lanes) {
    if (stop.load()) {
      prep.errors.push_back("interrupted while preparing lanes");
      prep.only_servers_failed = false;
      break;
    }
    LaneRuntime runtime;
    runtime.plan = lane;
    std::string error = resolve_endpoint(lane, env, runtime);
    if (error.empty() && !lane.api_key_env.empty() && plan::key_goes_over_plain_http(lane))
      sink.on_message(MessageLevel::Warning,
                      "lane " + lane.id + ": its API key goes over plain http to " +
                          plan::url_host(lane.base_url) + " (allow_key_over_http)");
    if (!error.empty()) prep.only_servers_failed = false;
    if (error.empty()) error = probe_lane(lane, client, sink, runtime);
    if (!error.empty()) {
      prep.errors.push_back(std::move(error));
      continue;
    }
    prep.lanes.push_back(std::move(runtime));
  }
  return prep;
}

}  // namespace lb::run
