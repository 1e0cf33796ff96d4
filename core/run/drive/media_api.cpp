#include "core/run/drive/media_api.h"

#include "core/run/drive/media_encoding.h"
#include "core/run/drive/media_request_bodies.h"

namespace lb::run {

const char* to_string(MediaApi api) {
  switch (api) {
    case MediaApi::Chat:
      return "chat";
    case MediaApi::Responses:
      return "responses";
    case MediaApi::Ollama:
      return "ollama";
  }
  return "chat";
}

std::optional<MediaApi> media_api_from_string(std::string_view name) {
  for (MediaApi api : {MediaApi::Chat, MediaApi::Responses, MediaApi::Ollama})
    if (name == to_string(api)) return api;
  return std::nullopt;
}

const char* media_api_route(MediaApi api) {
  switch (api) {
    case MediaApi::Chat:
      return "/v1/chat/completions";
    case MediaApi::Responses:
      return "/v1/responses";
    case MediaApi::Ollama:
      return "/api/chat";
  }
  return "/v1/chat/completions";
}

net::Dialect media_api_dialect(MediaApi api) {
  switch (api) {
    case MediaApi::Chat:
      return net::Dialect::OpenAiChat;
    case MediaApi::Responses:
      return net::Dialect::OpenAiResponses;
    case MediaApi::Ollama:
      return net::Dialect::OllamaChat;
  }
  return net::Dialect::OpenAiChat;
}

std::string media_api_url(const LaneEndpoint& lane, MediaApi api) {
  switch (api) {
    case MediaApi::Responses:
      return lane.api_url("/responses");
    case MediaApi::Ollama:
      return lane.root_url("/api/chat");
    case MediaApi::Chat:
      break;
  }
  return lane.api_url("/chat/completions");
}

std::string media_api_refusal(MediaApi api, const plan::PromptSpec& prompt) {
  if (api == MediaApi::Chat) return {};
  return wire_refusal(prompt.media,
                      api == MediaApi::Ollama ? MediaWire::BareBase64 : MediaWire::ImagesOnly);
}

RequestBody media_api_body(MediaApi api, const plan::PromptSpec& prompt,
                           const ChatRequestOptions& options) {
  switch (api) {
    case MediaApi::Responses:
      return responses_request_body(prompt, options);
    case MediaApi::Ollama:
      return ollama_chat_request_body(prompt, options);
    case MediaApi::Chat:
      break;
  }
  return prompt_request_body(prompt, options);
}

}  // namespace lb::run
