#pragma once
// GenRequest: one generation request (chat, completions or responses) parsed from its JSON body,
// with the prompt rendered through the simulator's chat template and tokenized.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "request_media.h"
#include "tokenizer.h"

namespace lb::sim {

// OllamaChat: Ollama's native /api/chat (a lane serving as Ollama, ollama_wire.h).
enum class Endpoint { Chat, Completions, Responses, OllamaChat };

struct ChatMessage {
  std::string role;
  std::string text;  // text parts joined; tool calls of assistant turns rendered as JSON
  bool has_tool_calls = false;
  std::vector<MediaPart> media;       // image_url / video_url / input_image parts, in order
  std::vector<TokenId> media_tokens;  // the media's placeholder tokens, before the text
};

struct ToolSpec {
  std::string name;
  nlohmann::json parameters;  // JSON schema of the arguments
};

struct GenRequest {
  Endpoint endpoint = Endpoint::Chat;
  std::string model;
  bool stream = false;
  bool include_usage = false;
  bool continuous_usage = false;
  std::optional<int64_t> max_tokens;
  bool ignore_eos = false;
  std::string reasoning_effort;  // "", "low", "medium", "high" (xhigh folds into high)
  std::vector<ToolSpec> tools;
  std::string tool_choice = "auto";  // "auto", "none", "required" or a function name
  bool parallel_tool_calls = true;
  std::optional<nlohmann::json> json_schema;  // response_format json_schema.schema
  bool json_object = false;                   // response_format json_object
  std::vector<ChatMessage> messages;          // chat and responses
  std::string prompt_text;                    // completions
  // Logprobs as vLLM takes them: chat `logprobs` (bool) + `top_logprobs`; completions
  // `logprobs` (int) and `echo`; `return_tokens_as_token_ids` names tokens "token_id:N".
  bool logprobs = false;
  int top_logprobs = 0;
  bool echo = false;
  int prompt_logprobs =
      -1;  // completions: vLLM's prompt_logprobs (top-k per prompt token); -1 = off
  bool tokens_as_ids = false;
  // The lane's vocabulary (SimConfig::token_id_offset): wire ids are the tokenizer's plus this.
  // Set before parsing, so token-id prompts are read back.
  int64_t token_id_offset = 0;
  std::shared_ptr<const std::vector<TokenId>> prompt_tokens;
  // Sampling as vLLM takes it: temperature 0 (or none given) is greedy; seed makes a sample
  // reproducible.
  double temperature = 0;
  double top_p = 1;
  std::optional<int64_t> seed;
  double speed_factor = 1.0;  // from the lane's run_jitter and the x-sim-trial header
  // Decoded media of every message (multimodal_prefill.h) and the vision encoder's time.
  std::vector<RequestMedia> media;
  double vision_encoder_s = 0;
};

struct ParseError {
  std::string message;
  std::string param;
};

// Chat template (ChatML): per message <|im_start|> role "\n" [media tokens] content <|im_end|>
// "\n", then
// <|im_start|> "assistant\n" when a generation prompt is asked for. Tools are rendered as a
// system message "# Tools\n" + the tools' JSON. Segments are tokenized separately.
std::vector<TokenId> render_chat(const std::vector<ChatMessage>& messages,
                                 const std::vector<ToolSpec>& tools, bool add_generation_prompt);

// Fills `out` from a request body; returns an error in vLLM's terms when the body is invalid.
std::optional<ParseError> parse_gen_request(Endpoint endpoint, const nlohmann::json& body,
                                            GenRequest& out);
std::optional<ParseError> parse_messages(const nlohmann::json& messages,
                                         std::vector<ChatMessage>& out);
std::optional<ParseError> parse_tools(const nlohmann::json& tools, std::vector<ToolSpec>& out);

// Ollama's /api/chat body: messages whose `images` are bare base64 (read as data: URLs of the
// format their bytes show), `options` {temperature, top_p, seed, num_predict}, `format` ("json"
// or a JSON schema), `tools`, `think`, and `stream` (true when left out, as Ollama has it).
std::optional<ParseError> parse_ollama_chat(const nlohmann::json& body, GenRequest& out);

// The last user message (or the completions prompt): what the answer is keyed on.
std::string last_user_text(const GenRequest& request);
// Every piece of prompt text joined: where a needle is searched for.
std::string full_prompt_text(const GenRequest& request);

}  // namespace lb::sim
