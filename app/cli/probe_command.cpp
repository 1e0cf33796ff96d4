// `lanebench-cli probe URL [--json]`: what is serving there (kind, dialect, models, context,
// version, health, /metrics families).
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "core/net/printable_text.h"
#include "core/net/stream_client.h"
#include "core/run/drive/chat_request_body.h"
#include "core/run/lanes/lane_probe.h"
#include "core/run/launch/sim_lane_registry.h"
#include "core/run/plan_runner.h"

namespace lb::cli {
namespace {

struct ProbeArgs {
  std::string url;
  bool json = false;
  bool insecure = false;
  std::string api_key_env;
};

void write_human(std::ostream& out, const std::string& url, const run::ProbeReport& r) {
  out << url << '\n';
  out << "  server:   " << metrics::to_string(r.kind) << (r.version.empty() ? "" : " " + r.version)
      << "  (" << r.kind_evidence << ")\n";
  out << "  dialect:  openai-chat over SSE"
      << (run::accepts_continuous_usage(r.kind) ? ", usage on every chunk" : "")
      << (r.supports_ignore_eos() ? ", ignore_eos" : "") << '\n';
  for (const auto& m : r.models)
    out << "  model:    " << m.id << "  (max context "
        << (m.max_model_len > 0 ? std::to_string(m.max_model_len) : "unknown") << ")\n";
  out << "  /version: " << (r.version_json.is_null() ? "none" : r.version_json.dump()) << '\n';
  out << "  /health:  " << (r.health_status ? std::to_string(r.health_status) : "no answer")
      << '\n';
  std::string families;
  for (const auto& f : r.metrics_families) families += (families.empty() ? "" : ", ") + f + ":";
  out << "  /metrics: "
      << (!r.metrics_available ? "none"
          : families.empty()   ? "present (no known families)"
                               : families)
      << '\n';
}

void print_human(const std::string& url, const run::ProbeReport& r) {
  std::ostringstream out;
  write_human(out, url, r);
  std::cout << net::printable_text(out.str());  // what the server said, without escape codes
}

int probe_url(const ProbeArgs& args) {
  std::string url = args.url;
  std::string sim_spec;
  run::SimLaneResult sim;
  if (run::is_sim_base_url(url, &sim_spec)) {
    sim = run::start_sim_lane(sim_spec);
    if (!sim.error.empty()) {
      std::cerr << "lanebench-cli probe: " << sim.error << '\n';
      return run::kExitInput;
    }
    url = sim.base_url;
  }
  run::LaneEndpoint lane = run::endpoint_from_base_url("probe", url);
  lane.tls.verify = !args.insecure;
  if (!args.api_key_env.empty()) {
    const char* key = std::getenv(args.api_key_env.c_str());
    if (key && *key) run::set_api_key(lane, key);
  }
  net::StreamClient client;
  run::ProbeReport report = run::LaneProbe(client).probe(lane);
  if (args.json) {
    nlohmann::json j = report.to_json();
    j["url"] = args.url;
    if (args.insecure) j["tls_verification"] = "DISABLED (insecure)";
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  } else if (report.reachable) {
    print_human(args.url, report);
    if (args.insecure) std::cout << "  TLS:      verification DISABLED (insecure)\n";
  }
  if (!report.reachable) {
    std::cerr << "lanebench-cli probe: " << net::printable_text(report.error) << '\n';
    return run::kExitInput;
  }
  return run::kExitOk;
}

}  // namespace

void add_probe_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ProbeArgs>();
  auto* cmd = app.add_subcommand("probe", "say what serves at URL (kind, model, context, metrics)");
  cmd->add_option("url", args->url, "base URL, e.g. http://127.0.0.1:8000/v1, or sim:PROFILE")
      ->required();
  cmd->add_flag("--json", args->json, "print the probe as JSON on stdout");
  cmd->add_flag("--insecure", args->insecure, "do not verify TLS certificates (labelled)");
  cmd->add_option("--api-key-env", args->api_key_env,
                  "environment variable holding the API key (the key is never printed)");
  cmd->callback([args, &exit_code] { exit_code = probe_url(*args); });
}

}  // namespace lb::cli
