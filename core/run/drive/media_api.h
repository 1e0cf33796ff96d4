#pragma once
// The three APIs a prompt with images (and, over chat, videos) can go to (docs/multimodal.md,
// "Request shapes"): OpenAI chat, the OpenAI Responses API and Ollama's native chat. Each has its
// request body, its route and its stream dialect; Responses and Ollama take no video.
#include <optional>
#include <string>
#include <string_view>

#include "core/net/http_types.h"
#include "core/run/drive/chat_request_body.h"
#include "core/run/lanes/lane_endpoint.h"

namespace lb::run {

enum class MediaApi { Chat, Responses, Ollama };

// "chat", "responses", "ollama"
const char* to_string(MediaApi api);
std::optional<MediaApi> media_api_from_string(std::string_view name);
// The route as the server has it: "/v1/chat/completions", "/v1/responses", "/api/chat".
const char* media_api_route(MediaApi api);
net::Dialect media_api_dialect(MediaApi api);
// Where the lane takes it: the OpenAI routes hang off its /v1 base, Ollama's native API off the
// server root.
std::string media_api_url(const LaneEndpoint& lane, MediaApi api);

// Why the API cannot carry the prompt's media at all (a video over Responses or Ollama, an
// http(s) URL over Ollama); empty when it can. Nothing is encoded.
std::string media_api_refusal(MediaApi api, const plan::PromptSpec& prompt);

// The prompt's streamed request body in the API's shape, with its media.
RequestBody media_api_body(MediaApi api, const plan::PromptSpec& prompt,
                           const ChatRequestOptions& options);

}  // namespace lb::run
