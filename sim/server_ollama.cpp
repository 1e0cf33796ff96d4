// ServerCore's routes for a lane serving as Ollama (option api=ollama): the native API a client
// or LaneBench's probe recognises Ollama by (/api/version, /api/tags, /api/chat, "Ollama is
// running" at /) and the OpenAI routes Ollama serves under /v1. No /metrics, /version,
// /tokenize or /health: Ollama has none, and an unknown path is Gin's plain-text 404.
#include "ollama_wire.h"
#include "server_core.h"

namespace lb::sim {

namespace http = boost::beast::http;

namespace {

// The Ollama release whose wire format the simulator follows (tests/fixtures/wire/ollama_*).
constexpr const char* kOllamaVersion = "0.12.6";

HttpResponseMsg text_response(http::status status, std::string body) {
  HttpResponseMsg res{status, 11};
  res.set(http::field::content_type, "text/plain; charset=utf-8");
  res.body() = std::move(body);
  return res;
}

}  // namespace

void ServerCore::handle_ollama(const std::shared_ptr<HttpSession>& session,
                               const HttpRequestMsg& request, const std::string& path) {
  const bool get = request.method() == http::verb::get || request.method() == http::verb::head;
  const bool post = request.method() == http::verb::post;
  const std::string& model = config_.profile.model_id;
  if (path == "/" && get) {
    session->send(text_response(http::status::ok, "Ollama is running"));
  } else if (path == "/api/version" && get) {
    session->send(json_response(http::status::ok, ollama_version_body(kOllamaVersion)));
  } else if (path == "/api/tags" && get) {
    session->send(json_response(http::status::ok, ollama_tags_body(model)));
  } else if (path == "/v1/models" && get) {
    session->send(json_response(http::status::ok, ollama_models_body(model, created_)));
  } else if (path == "/api/chat" && post) {
    handle_generation(session, request, static_cast<int>(Endpoint::OllamaChat));
  } else if (path == "/v1/chat/completions" && post) {
    handle_generation(session, request, static_cast<int>(Endpoint::Chat));
  } else if (path == "/v1/completions" && post) {
    handle_generation(session, request, static_cast<int>(Endpoint::Completions));
  } else if (path == "/v1/responses" && post) {
    handle_generation(session, request, static_cast<int>(Endpoint::Responses));
  } else {
    session->send(text_response(http::status::not_found, "404 page not found"));
  }
}

}  // namespace lb::sim
