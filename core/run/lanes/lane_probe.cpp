#include "core/run/lanes/lane_probe.h"
#include "core/text/ascii_text.h"

#include <algorithm>
#include <cctype>

namespace lb::run {
namespace {

std::string header_value(const net::StreamResult& r, std::string_view name) {
  for (const auto& [k, v] : r.response_headers)
    if (text::ascii_lower(k) == name) return v;
  return {};
}

nlohmann::json parse_or_null(const std::string& body) {
  auto j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  return j.is_discarded() ? nlohmann::json() : j;
}

int64_t context_of(const nlohmann::json& card) {
  if (card.contains("max_model_len") && card["max_model_len"].is_number_integer())
    return card["max_model_len"].get<int64_t>();
  if (card.contains("meta") && card["meta"].is_object() && card["meta"].contains("n_ctx_train") &&
      card["meta"]["n_ctx_train"].is_number_integer())
    return card["meta"]["n_ctx_train"].get<int64_t>();
  return -1;
}

void read_models(ProbeReport& report, const net::StreamResult& r) {
  report.server_header = header_value(r, "server");
  if (r.error != net::ErrorKind::None || r.http_status != 200) {
    report.error =
        "GET /v1/models failed: " +
        (r.error_message.empty() ? "HTTP " + std::to_string(r.http_status) : r.error_message);
    return;
  }
  report.models_json = parse_or_null(r.body);
  const auto& data = report.models_json.is_object() && report.models_json.contains("data")
                         ? report.models_json["data"]
                         : nlohmann::json();
  if (!data.is_array()) {
    report.error = "GET /v1/models did not return a model list";
    return;
  }
  for (const auto& card : data) {
    if (!card.is_object() || !card.contains("id") || !card["id"].is_string()) continue;
    ModelInfo m;
    m.id = card["id"].get<std::string>();
    m.max_model_len = context_of(card);
    if (card.contains("owned_by") && card["owned_by"].is_string())
      m.owned_by = card["owned_by"].get<std::string>();
    report.models.push_back(std::move(m));
  }
  report.reachable = true;
}

bool has_family(const ProbeReport& r, std::string_view family) {
  return std::find(r.metrics_families.begin(), r.metrics_families.end(), family) !=
         r.metrics_families.end();
}

}  // namespace

std::vector<std::string> metrics_families_in(const std::string& prom_text) {
  std::vector<std::string> out;
  for (const char* family : {"vllm", "sglang", "llamacpp"}) {
    const std::string prefix = std::string(family) + ":";
    // A family counts when a sample or a HELP/TYPE line names it at the start of a line.
    size_t pos = 0;
    bool found = false;
    while (!found && (pos = prom_text.find(prefix, pos)) != std::string::npos) {
      const bool line_start = pos == 0 || prom_text[pos - 1] == '\n' || prom_text[pos - 1] == ' ';
      found = line_start;
      pos += prefix.size();
    }
    if (found) out.emplace_back(family);
  }
  return out;
}

void guess_server_kind(ProbeReport& r) {
  const std::string version_text = text::ascii_lower(r.version_json.dump());
  const std::string server = text::ascii_lower(r.server_header);
  const std::string owner =
      r.models.empty() ? std::string() : text::ascii_lower(r.models.front().owned_by);
  auto set = [&r](ServerKind k, std::string why) {
    r.kind = k;
    r.kind_evidence = std::move(why);
  };
  if (version_text.find("lanebench") != std::string::npos ||
      server.find("lanebench") != std::string::npos)
    set(ServerKind::LanebenchSim, "/version or server header names lanebench-sim");
  else if (has_family(r, "sglang") || owner == "sglang")
    set(ServerKind::Sglang, has_family(r, "sglang") ? "sglang: metrics" : "owned_by sglang");
  else if (has_family(r, "llamacpp") || owner == "llamacpp" ||
           server.find("llama.cpp") != std::string::npos)
    set(ServerKind::LlamaCpp, "llamacpp: metrics, owned_by or server header");
  else if (has_family(r, "vllm") || owner == "vllm")
    set(ServerKind::Vllm, has_family(r, "vllm") ? "vllm: metrics" : "owned_by vllm");
  else if (r.ollama_api)
    set(ServerKind::Ollama, "/api/version answered (Ollama's native API)");
  else if (owner == "library" || owner == "ollama")
    set(ServerKind::Ollama, "owned_by " + owner);
  else if (version_text.find("text-generation") != std::string::npos)
    set(ServerKind::Tgi, "TGI router in /info");
  else
    set(ServerKind::Unknown, "no identifying evidence");
}

int64_t ProbeReport::max_context_tokens() const {
  return models.empty() ? -1 : models.front().max_model_len;
}

bool ProbeReport::supports_ignore_eos() const {
  return kind == ServerKind::Vllm || kind == ServerKind::Sglang ||
         kind == ServerKind::LanebenchSim || kind == ServerKind::LlamaCpp;
}

nlohmann::json ProbeReport::to_json() const {
  nlohmann::json j;
  j["reachable"] = reachable;
  if (!error.empty()) j["error"] = error;
  j["server_kind"] = to_string(kind);
  j["server_kind_evidence"] = kind_evidence;
  j["dialect"] = "openai-chat";
  nlohmann::json models_out = nlohmann::json::array();
  for (const auto& m : models)
    models_out.push_back(
        {{"id", m.id}, {"max_model_len", m.max_model_len}, {"owned_by", m.owned_by}});
  j["models"] = models_out;
  j["max_context_tokens"] = max_context_tokens();
  j["v1_models"] = models_json;
  j["version"] = version_json;
  if (ollama_api) j["ollama_api"] = true;
  j["health_status"] = health_status;
  j["metrics_available"] = metrics_available;
  j["metrics_families"] = metrics_families;
  if (!server_header.empty()) j["server_header"] = server_header;
  return j;
}

net::StreamResult LaneProbe::plain(const LaneEndpoint& lane, std::string url, std::string method) {
  auto req = lane.make_request(std::move(url), std::move(method));
  req.stream = false;
  req.dialect = net::Dialect::PlainText;
  req.timeouts.connect_ms = 5'000;
  req.timeouts.first_byte_ms = 15'000;
  req.timeouts.idle_ms = 15'000;
  req.timeouts.total_ms = 30'000;
  return client_.fetch(std::move(req));
}

bool LaneProbe::scrape_metrics(const LaneEndpoint& lane, std::string& text_out) {
  auto r = get(lane, lane.root_url("/metrics"));
  if (r.error != net::ErrorKind::None || r.http_status != 200) {
    text_out.clear();
    return false;
  }
  text_out = std::move(r.body);
  return true;
}

ProbeReport LaneProbe::probe(const LaneEndpoint& lane) {
  ProbeReport report;
  report.api_base = lane.api_base;
  read_models(report, get(lane, lane.api_url("/models")));
  if (!report.reachable) return report;
  auto version = get(lane, lane.root_url("/version"));
  if (version.error != net::ErrorKind::None || version.http_status != 200) {
    // Ollama has no /version; its native API answers /api/version with {"version": "0.12.6"}.
    version = get(lane, lane.root_url("/api/version"));
    report.ollama_api = version.error == net::ErrorKind::None && version.http_status == 200 &&
                        parse_or_null(version.body).contains("version");
  }
  if (version.error == net::ErrorKind::None && version.http_status == 200) {
    report.version_json = parse_or_null(version.body);
    if (report.version_json.is_object() && report.version_json.contains("version") &&
        report.version_json["version"].is_string())
      report.version = report.version_json["version"].get<std::string>();
  }
  report.health_status = get(lane, lane.root_url("/health")).http_status;
  report.metrics_available = scrape_metrics(lane, report.metrics_text);
  report.metrics_families = metrics_families_in(report.metrics_text);
  guess_server_kind(report);
  if (report.kind == ServerKind::Unknown) {
    auto info = get(lane, lane.root_url("/info"));  // TGI describes itself here
    if (info.http_status == 200 && report.version_json.is_null())
      report.version_json = parse_or_null(info.body);
    guess_server_kind(report);
  }
  return report;
}

}  // namespace lb::run
