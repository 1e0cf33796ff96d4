#pragma once
// ServerCore: the state of one simulated lane on its I/O thread (clock, engine model, metrics,
// trace) and the HTTP routing of vLLM's endpoints (or Ollama's, server_ollama.cpp). Everything here
// runs on that one thread.
#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "answer_book.h"
#include "asio_sim_clock.h"
#include "engine_model.h"
#include "http_session.h"
#include "media_fetch.h"
#include "metrics_registry.h"
#include "sim_config.h"
#include "trace_writer.h"

namespace lb::sim {

class LogprobModel;

class ServerCore final : public RequestHandler {
 public:
  ServerCore(boost::asio::io_context& io, SimConfig config);
  ~ServerCore() override;

  void handle(const std::shared_ptr<HttpSession>& session, HttpRequestMsg request) override;

  boost::asio::io_context& io() { return io_; }
  AsioSimClock& clock() { return clock_; }
  EngineModel& engine() { return engine_; }
  MetricsRegistry& metrics() { return metrics_; }
  TraceWriter& trace() { return trace_; }
  const SimConfig& config() const { return config_; }
  std::string next_id(const char* prefix);
  std::string render_metrics() const {
    return metrics_.render(engine_.snapshot(), config_.time_scale);
  }

 private:
  void handle_generation(const std::shared_ptr<HttpSession>& session, const HttpRequestMsg& request,
                         int endpoint);
  // The routes of a lane serving as Ollama (server_ollama.cpp).
  void handle_ollama(const std::shared_ptr<HttpSession>& session, const HttpRequestMsg& request,
                     const std::string& path);
  // Media given by http(s) URL are fetched on the fetcher's threads; generate() then runs back
  // on the I/O thread with their bytes, or the fetch error is answered with a 400.
  void fetch_then_generate(const std::shared_ptr<HttpSession>& session,
                           const HttpRequestMsg& request, GenRequest gen);
  // Decodes the media and answers the request: checks, faults, then the stream.
  void generate(const std::shared_ptr<HttpSession>& session, const HttpRequestMsg& request,
                GenRequest gen);
  void handle_tokenize(const std::shared_ptr<HttpSession>& session, const HttpRequestMsg& request);
  // Ground truth for tests: where this answer departs from the unperturbed model's.
  void trace_flip(const std::string& request_id, const LogprobModel& model, uint64_t prompt_fnv);
  void handle_detokenize(const std::shared_ptr<HttpSession>& session,
                         const HttpRequestMsg& request);
  std::string models_body() const;
  FaultKind pick_fault(const HttpRequestMsg& request);
  bool authorized(const HttpRequestMsg& request, const std::string& path) const;
  bool check_model(const std::shared_ptr<HttpSession>& session, const std::string& model);

  boost::asio::io_context& io_;
  SimConfig config_;
  AsioSimClock clock_;
  EngineModel engine_;
  MetricsRegistry metrics_;
  TraceWriter trace_;
  uint64_t id_counter_ = 0;
  uint64_t fault_counter_ = 0;
  uint64_t sample_counter_ = 0;  // draws of unseeded samples
  int64_t created_ = 0;
  // Last, so it is destroyed first: its transfers stop before the rest of the core goes.
  std::unique_ptr<MediaFetcher> fetcher_;
};

// The value of a request header, or "" when it is absent.
std::string header_value(const HttpRequestMsg& request, const char* name);
HttpResponseMsg json_response(boost::beast::http::status status, std::string body);
HttpResponseMsg error_response(int code, const std::string& message, const std::string& type,
                               const std::string& param = "");

}  // namespace lb::sim
