#pragma once
// Recognises every error shape the supported servers send, in a stream or as an HTTP error body:
//   {"error": {"message": ..., "type": ..., "code": ...}}   OpenAI, vLLM, SGLang, llama.cpp, Ollama
//   /v1
//   {"object": "error", "message": ..., "type": ..., "code": ...}  older vLLM, SGLang (flat)
//   {"error": "...", "error_type": "..."}                    TGI
//   {"error": "..."}                                         Ollama native
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace lb::net {

// The server's message for an error object, with its type/code appended when present
// (e.g. "Model is overloaded (overloaded)"). nullopt when `j` is not an error.
std::optional<std::string> error_message_of(const nlohmann::json& j);

// For an HTTP error response body: the message from a JSON error shape, else the body's first
// 300 bytes with whitespace trimmed, else the empty string.
std::string error_message_from_body(std::string_view body);

}  // namespace lb::net
