#pragma once
// FakeVllm: a vLLM look-alike on loopback built on ReplayServer, for run-layer and CLI tests.
// It answers /v1/models, /version, /health and /metrics like vLLM, and streams chat completions
// in vLLM's wire format (role chunk, one content chunk per token with continuous usage, a final
// usage chunk, [DONE]) with scripted delays, so every timing the client measures is known.
// A request that says "stream": false gets one chat.completion document instead. For the gates,
// a test can script the whole message of each answer (reasoning, tool calls) and serve
// /v1/responses.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "replay_server.h"

namespace lb::test {

// The whole message of one answer, sent as vLLM sends it: streamed one delta per word
// (reasoning as "reasoning_content", then content, then each tool call's name and arguments) or
// as one document. /v1/responses answers send the content only.
struct FakeMessage {
  std::string content;
  std::string reasoning;
  // {"name": ..., "arguments": the arguments text as the model wrote it}
  nlohmann::json tool_calls = nlohmann::json::array();
  // false: a stream stops after its last delta, without its end (finish_reason, usage and [DONE]
  // for chat, response.completed for responses).
  bool stream_ends = true;
};

struct FakeVllmOptions {
  std::string model = "test-org/test-model-8b";
  int64_t max_model_len = 8192;
  int64_t ttft_us = 20'000;  // after the role chunk, before the first content chunk
  int64_t itl_us = 2'000;    // between content chunks
  int tokens = 8;            // content chunks of one token each
  int64_t prompt_tokens = 100;
  // Status for the n-th chat request (1-based); 200 streams, anything else is an error body
  // (401's quotes the Bearer key it was sent, as OpenAI's API does).
  std::function<int(uint64_t n)> status_for;
  // The first content chunk's text for a given last message; default echo_prefix().
  std::function<std::string(const std::string& last_message)> answer;
  // The whole message for a chat request's parsed body; unset: the token echo above.
  std::function<FakeMessage(const nlohmann::json& request)> message;
  // The answer to a /v1/responses request's parsed body; unset: 404, as a server without the API.
  std::function<FakeMessage(const nlohmann::json& request)> responses;
  // A chat request for which this returns a non-empty body is answered 400 with that body (e.g.
  // a server that takes no images refusing one).
  std::function<std::string(const nlohmann::json& request)> refuse;
  // A chat request for which this returns a script is answered with it as it stands (e.g. a
  // stream of keep-alive comments that never carries an answer).
  std::function<std::optional<ResponseScript>(const nlohmann::json& request)> script;
  bool metrics = true;  // serve vllm: counters on /metrics
  // /health answers 503 while this returns false (a server still loading); unset: always 200.
  std::function<bool()> healthy;
  int threads = 2;
};

class FakeVllm {
 public:
  explicit FakeVllm(FakeVllmOptions options = {});
  std::string base_url() const;  // "http://127.0.0.1:PORT/v1"
  ReplayServer& server() { return *server_; }
  uint64_t chat_requests() const { return chat_requests_.load(); }
  // The content a chat request gets: "echo:" + the first 24 characters of the last message,
  // then " tN" per further token, so tests can check prompt order.
  static std::string echo_prefix(const std::string& body);
  static std::string last_message(const std::string& body);

 private:
  ResponseScript answer(const ServedRequest& request);
  ResponseScript chat(const ServedRequest& request);
  ResponseScript chat_message(const FakeMessage& message, bool stream) const;
  ResponseScript responses(const ServedRequest& request) const;
  std::string metrics_text() const;

  FakeVllmOptions options_;
  std::atomic<uint64_t> chat_requests_{0};
  std::atomic<uint64_t> chat_tokens_{0};
  std::unique_ptr<ReplayServer> server_;
};

}  // namespace lb::test
