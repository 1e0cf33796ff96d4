#pragma once
// Sizes a chat prompt to a target token count with the server's own tokenizer (POST /tokenize
// with the messages, so the chat template is counted as the server charges it), iterating until
// within 0.1 % (or 2 tokens). Without /tokenize the client's estimate is used and said to be one.
#include <cstdint>
#include <functional>
#include <string>

#include "core/net/stream_client.h"
#include "core/run/lanes/lane_endpoint.h"

namespace lb::run {

struct SizedPrompt {
  std::string text;
  int64_t tokens = -1;  // as counted (tokenize) or estimated
  bool tokenized = false;
  int64_t budget = 0;  // the estimated filler tokens `build` was given for `text`
};

// build(estimated_tokens) returns the user message for that many estimated filler tokens.
SizedPrompt size_prompt(net::StreamClient& client, const LaneEndpoint& lane, int64_t target_tokens,
                        const std::function<std::string(int64_t)>& build, bool use_tokenize);

// The server's count of a one-user-message chat, -1 when it has no /tokenize.
int64_t tokenize_count(net::StreamClient& client, const LaneEndpoint& lane,
                       const std::string& user_text);

}  // namespace lb::run
