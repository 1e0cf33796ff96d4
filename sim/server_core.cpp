#include "server_core.h"

#include <chrono>
#include <cstdio>

#include "generation_stream.h"
#include "text_filler.h"

namespace lb::sim {

namespace http = boost::beast::http;
using nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

constexpr int kChat = static_cast<int>(Endpoint::Chat);
constexpr int kCompletions = static_cast<int>(Endpoint::Completions);
constexpr int kResponses = static_cast<int>(Endpoint::Responses);

std::string target_path(const HttpRequestMsg& request) {
  std::string path(request.target());
  const size_t q = path.find('?');
  return q == std::string::npos ? path : path.substr(0, q);
}

}  // namespace

std::string header_value(const HttpRequestMsg& request, const char* name) {
  auto it = request.find(name);
  return it == request.end() ? std::string{} : std::string(it->value());
}

HttpResponseMsg json_response(http::status status, std::string body) {
  HttpResponseMsg res{status, 11};
  res.set(http::field::content_type, "application/json");
  res.set(http::field::server, "uvicorn");
  res.body() = std::move(body);
  return res;
}

HttpResponseMsg error_response(int code, const std::string& message, const std::string& type,
                               const std::string& param) {
  return json_response(static_cast<http::status>(code), error_body(message, type, param, code));
}

ServerCore::ServerCore(boost::asio::io_context& io, SimConfig config)
    : io_(io),
      config_(std::move(config)),
      clock_(io, config_.time_scale),
      engine_(config_.profile, clock_),
      metrics_(config_.profile),
      trace_(config_.trace_path, config_.trace_sink) {
  created_ = std::chrono::duration_cast<std::chrono::seconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count();
  if (config_.retrieval_window_tokens <= 0) {
    config_.retrieval_window_tokens = config_.profile.max_model_len;
  }
  FetchLimits limits = config_.media_fetch;
  limits.user_agent = "vLLM/" + config_.version;
  fetcher_ = std::make_unique<MediaFetcher>(std::move(limits));
}

ServerCore::~ServerCore() { trace_.flush(); }

std::string ServerCore::next_id(const char* prefix) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%016llx%016llx", prefix,
                static_cast<unsigned long long>(fnv1a64(config_.profile.name, config_.seed)),
                static_cast<unsigned long long>(++id_counter_));
  return buf;
}

std::string ServerCore::models_body() const {
  const std::string& id = config_.profile.model_id;
  ojson perm;
  perm["id"] = "modelperm-" + std::to_string(fnv1a64(id));
  perm["object"] = "model_permission";
  perm["created"] = created_;
  for (auto [k, v] : {std::pair{"allow_create_engine", false},
                      {"allow_sampling", true},
                      {"allow_logprobs", true},
                      {"allow_search_indices", false},
                      {"allow_view", true},
                      {"allow_fine_tuning", false}}) {
    perm[k] = v;
  }
  perm["organization"] = "*";
  perm["group"] = nullptr;
  perm["is_blocking"] = false;
  ojson card;
  card["id"] = id;
  card["object"] = "model";
  card["created"] = created_;
  card["owned_by"] = "vllm";
  card["root"] = id;
  card["parent"] = nullptr;
  card["max_model_len"] = config_.profile.max_model_len;
  card["permission"] = ojson::array({perm});
  return ojson{{"object", "list"}, {"data", ojson::array({card})}}.dump();
}

bool ServerCore::check_model(const std::shared_ptr<HttpSession>& session,
                             const std::string& model) {
  if (model.empty() || model == config_.profile.model_id) return true;
  session->send(
      error_response(404, "The model `" + model + "` does not exist.", "NotFoundError", "model"));
  return false;
}

FaultKind ServerCore::pick_fault(const HttpRequestMsg& request) {
  FaultKind kind = FaultKind::None;
  const std::string header = header_value(request, "x-sim-fault");
  if (!header.empty() && parse_fault_kind(header, kind)) return kind;
  const FaultConfig& f = config_.faults;
  // Deterministic "random" draws: the same run of requests faults the same requests.
  const uint64_t n = ++fault_counter_;
  const double u1 = static_cast<double>(fnv1a64(std::to_string(n), config_.seed) % 1'000'000) / 1e6;
  const double u2 =
      static_cast<double>(fnv1a64(std::to_string(n), config_.seed + 1) % 1'000'000) / 1e6;
  if (f.error_rate > 0 && u1 < f.error_rate) return FaultKind::ServerError;
  if (f.kind != FaultKind::None && u2 < f.rate) return f.kind;
  return FaultKind::None;
}

// vLLM's --api-key guards the /v1 routes only; /health, /metrics, /tokenize stay open.
bool ServerCore::authorized(const HttpRequestMsg& request, const std::string& path) const {
  if (config_.api_key.empty() || path.rfind("/v1", 0) != 0) return true;
  return header_value(request, "Authorization") == "Bearer " + config_.api_key;
}

void ServerCore::handle(const std::shared_ptr<HttpSession>& session, HttpRequestMsg request) {
  const std::string path = target_path(request);
  const bool get = request.method() == http::verb::get;
  const bool post = request.method() == http::verb::post;
  if (!authorized(request, path)) {
    session->send(json_response(http::status::unauthorized, R"({"error":"Unauthorized"})"));
  } else if (config_.api == ServeAs::Ollama) {
    handle_ollama(session, request, path);
  } else if (path == "/health" && get) {
    HttpResponseMsg res{http::status::ok, 11};
    res.set(http::field::server, "uvicorn");
    session->send(std::move(res));
  } else if (path == "/version" && get) {
    session->send(json_response(http::status::ok, ojson{{"version", config_.version}}.dump()));
  } else if (path == "/v1/models" && get) {
    session->send(json_response(http::status::ok, models_body()));
  } else if (path == "/load" && get) {
    const EngineSnapshot s = engine_.snapshot();
    session->send(
        json_response(http::status::ok, ojson{{"server_load", s.running + s.waiting}}.dump()));
  } else if (path == "/metrics" && get) {
    HttpResponseMsg res{http::status::ok, 11};
    res.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
    res.set(http::field::server, "uvicorn");
    res.body() = render_metrics();
    session->send(std::move(res));
  } else if (path == "/reset_prefix_cache" && post) {
    // vLLM serves it in development mode (VLLM_SERVER_DEV_MODE=1): 200 with an empty body.
    engine_.reset_prefix_cache();
    HttpResponseMsg res{http::status::ok, 11};
    res.set(http::field::server, "uvicorn");
    session->send(std::move(res));
  } else if (path == "/tokenize" && post) {
    handle_tokenize(session, request);
  } else if (path == "/detokenize" && post) {
    handle_detokenize(session, request);
  } else if (path == "/v1/chat/completions" && post) {
    handle_generation(session, request, kChat);
  } else if (path == "/v1/completions" && post) {
    handle_generation(session, request, kCompletions);
  } else if (path == "/v1/responses" && post) {
    handle_generation(session, request, kResponses);
  } else {
    static const char* const kRoutes[] = {
        "/health",         "/version",      "/v1/models",         "/load",
        "/metrics",        "/tokenize",     "/detokenize",        "/v1/chat/completions",
        "/v1/completions", "/v1/responses", "/reset_prefix_cache"};
    bool wrong_method = false;
    for (const char* route : kRoutes) wrong_method = wrong_method || path == route;
    session->send(
        wrong_method
            ? json_response(http::status::method_not_allowed, R"({"detail":"Method Not Allowed"})")
            : json_response(http::status::not_found, R"({"detail":"Not Found"})"));
  }
}

}  // namespace lb::sim
