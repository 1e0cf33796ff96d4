#pragma once
// Request bodies for the two other APIs that take images: the OpenAI Responses API
// (/v1/responses, `input_image` parts) and Ollama's native chat (/api/chat, `images` as bare
// base64 on the message). Both put a prompt's media with its last user message, before its text,
// as the chat body does (core/run/drive/chat_request_body.h). Neither API takes video: a prompt
// with a video is refused, not sent without it.
#include "core/run/drive/chat_request_body.h"

namespace lb::run {

// Streamed /v1/responses: {"model", "input": [messages], "max_output_tokens", "temperature"}.
RequestBody responses_request_body(const plan::PromptSpec& prompt,
                                   const ChatRequestOptions& options);

// Streamed (NDJSON) /api/chat: {"model", "messages", "stream", "options": {"temperature",
// "num_predict", "seed"}}.
RequestBody ollama_chat_request_body(const plan::PromptSpec& prompt,
                                     const ChatRequestOptions& options);

}  // namespace lb::run
