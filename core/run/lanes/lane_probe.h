#pragma once
// LaneProbe asks a serving endpoint what it is before anything is measured: its models and
// context length (/v1/models), its build (/version, or Ollama's /api/version), its health, and
// which /metrics families it exposes. The server kind decides request extensions (e.g. ignore_eos)
// and counter names.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/server_kind.h"
#include "core/net/stream_client.h"
#include "core/run/lanes/lane_endpoint.h"

namespace lb::run {

using metrics::ServerKind;

struct ModelInfo {
  std::string id;
  int64_t max_model_len = -1;  // tokens; llama.cpp reports its trained context here
  std::string owned_by;
};

struct ProbeReport {
  std::string api_base;
  bool reachable = false;  // /v1/models answered with a model list
  std::string error;       // why not reachable
  std::vector<ModelInfo> models;
  nlohmann::json models_json;   // the /v1/models body as the server sent it
  nlohmann::json version_json;  // the /version body (null when absent)
  std::string version;          // version string when the body had one
  bool ollama_api = false;      // /api/version answered (Ollama's native API; no /version)
  int health_status = 0;        // HTTP status of /health (0 = no answer)
  bool metrics_available = false;
  std::vector<std::string> metrics_families;  // "vllm", "sglang", "llamacpp"
  std::string metrics_text;                   // the /metrics scrape taken while probing
  std::string server_header;                  // HTTP "server" header of /v1/models
  ServerKind kind = ServerKind::Unknown;
  std::string kind_evidence;  // what the guess rests on
  net::Dialect dialect = net::Dialect::OpenAiChat;

  int64_t max_context_tokens() const;  // of the first model, -1 unknown
  bool supports_ignore_eos() const;
  nlohmann::json to_json() const;  // no headers, no secrets
};

class LaneProbe {
 public:
  explicit LaneProbe(net::StreamClient& client) : client_(client) {}
  ProbeReport probe(const LaneEndpoint& lane);
  // GET server_root/metrics; empty string and false when the server has none.
  bool scrape_metrics(const LaneEndpoint& lane, std::string& text_out);
  // One plain (not streamed) request to the lane's server with the probe's timeouts, e.g. a
  // POST to a control endpoint; the body is read as text.
  net::StreamResult plain(const LaneEndpoint& lane, std::string url, std::string method);

 private:
  net::StreamResult get(const LaneEndpoint& lane, std::string url) {
    return plain(lane, std::move(url), "GET");
  }
  net::StreamClient& client_;
};

// Exposed for tests: the families present in a Prometheus text body.
std::vector<std::string> metrics_families_in(const std::string& prom_text);
// Exposed for tests: guesses the kind from what a probe collected.
void guess_server_kind(ProbeReport& report);

}  // namespace lb::run
