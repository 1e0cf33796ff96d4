#pragma once
// The JSON body of a streamed /v1/chat/completions request, with the extensions a server is known
// to accept: usage on every chunk (vLLM/SGLang continuous_usage_stats) so tokens are counted, not
// events, and ignore_eos so a throughput request generates exactly max_tokens.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/metrics/request_media.h"
#include "core/plan/prompt_set.h"
#include "core/run/lanes/lane_probe.h"

namespace lb::run {

// The most tokens a streamed answer to a request asking for MAX_TOKENS may carry before the
// request is ended (HttpRequest::max_stream_tokens): four times the ask, plus room for servers
// that count reasoning or speculative tokens apart; 0 (no cap) when the ask is unknown.
constexpr int64_t stream_token_cap(int64_t max_tokens) {
  return max_tokens > 0 ? 4 * max_tokens + 64 : 0;
}

struct ChatRequestOptions {
  std::string model;
  int64_t max_tokens = 256;
  double temperature = 0;   // 0 = greedy
  double top_p = -1;        // nucleus sampling; < 0 = not sent (the server's default)
  int64_t seed = -1;        // sampling seed; < 0 = not sent
  bool ignore_eos = false;  // sent only when the server is known to accept it
  ServerKind server = ServerKind::Unknown;
  // Per-token logprobs with this many alternatives (OpenAI logprobs + top_logprobs); 0 = off.
  // vLLM-family servers are also asked for token ids (return_tokens_as_token_ids).
  int64_t top_logprobs = 0;
  // The lane's limit on one request's media (encoded files together); <= 0 = none.
  int64_t max_media_bytes = 0;
};

// A prompt's request body with what its media were, or why it is not to be sent.
struct RequestBody {
  std::shared_ptr<const std::string> body;  // null when refused
  metrics::RequestMedia media;              // encode_ns set when there were media
  std::string refused;                      // non-empty: the client does not send it (why)
};

// The chat body of a prompt. Its media go with the last user message as content parts before its
// text: `image_url` (data: URLs, or http(s) URLs as they are) and vLLM's `video_url`.
RequestBody prompt_request_body(const plan::PromptSpec& prompt, const ChatRequestOptions& options);

std::shared_ptr<const std::string> chat_request_body(const std::vector<plan::ChatMessage>& messages,
                                                     const ChatRequestOptions& options);
std::shared_ptr<const std::string> chat_request_body(const std::string& user_prompt,
                                                     const ChatRequestOptions& options);

// Whether a server kind is known to take an OpenAI `seed` (vLLM, SGLang, llama.cpp, TGI,
// Ollama, lanebench-sim); an unknown server is not sent one, as it may refuse unknown fields.
bool accepts_seed(ServerKind server);
// Whether a server kind accepts vLLM's stream_options.continuous_usage_stats.
bool accepts_continuous_usage(ServerKind server);

}  // namespace lb::run
