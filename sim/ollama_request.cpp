// Ollama's native /api/chat request, read into the GenRequest every other route fills.
#include "core/media/media_format.h"
#include "gen_request.h"

namespace lb::sim {
namespace {

using nlohmann::json;

// Ollama takes images as base64 without a data: prefix; the simulator's readers take data:
// URLs, so each one becomes the data: URL of the format its first bytes show.
std::optional<ParseError> read_images(const json& images, std::vector<MediaPart>& out) {
  if (!images.is_array()) return ParseError{"images must be a list of base64 strings", "images"};
  for (const auto& image : images) {
    if (!image.is_string()) return ParseError{"images must be a list of base64 strings", "images"};
    const std::string& text = image.get_ref<const std::string&>();
    const auto head = base64_decode(text.substr(0, std::min<size_t>(text.size(), 64) / 4 * 4));
    const std::string_view mime =
        head ? media::mime_type(media::sniff_format(*head)) : std::string_view();
    if (mime.empty() || mime.rfind("image/", 0) != 0)
      return ParseError{"invalid image input: not a PNG or JPEG image", "images"};
    out.push_back(MediaPart{false, "data:" + std::string(mime) + ";base64," + text});
  }
  return {};
}

std::optional<ParseError> read_messages(const json& messages, std::vector<ChatMessage>& out) {
  if (!messages.is_array()) return ParseError{"messages must be a list", "messages"};
  for (const auto& m : messages) {
    if (!m.is_object() || !m.contains("role") || !m["role"].is_string())
      return ParseError{"each message needs a string role", "messages"};
    ChatMessage msg;
    msg.role = m["role"];
    if (m.contains("content") && m["content"].is_string()) msg.text = m["content"];
    if (m.contains("images") && !m["images"].is_null()) {
      if (auto err = read_images(m["images"], msg.media)) return err;
    }
    if (m.contains("tool_calls") && m["tool_calls"].is_array() && !m["tool_calls"].empty()) {
      msg.has_tool_calls = true;
      msg.text += m["tool_calls"].dump();
    }
    out.push_back(std::move(msg));
  }
  if (out.empty()) return ParseError{"messages must not be empty", "messages"};
  return {};
}

std::optional<ParseError> read_options(const json& options, GenRequest& out) {
  if (!options.is_object()) return ParseError{"options must be an object", "options"};
  if (options.contains("temperature") && options["temperature"].is_number())
    out.temperature = std::max(0.0, options["temperature"].get<double>());
  if (options.contains("top_p") && options["top_p"].is_number()) {
    const double p = options["top_p"].get<double>();
    if (p > 0 && p <= 1) out.top_p = p;
  }
  if (options.contains("seed") && options["seed"].is_number_integer())
    out.seed = options["seed"].get<int64_t>();
  // num_predict <= 0 (-1: until the end) leaves the answer uncapped.
  if (options.contains("num_predict") && options["num_predict"].is_number_integer() &&
      options["num_predict"].get<int64_t>() > 0)
    out.max_tokens = options["num_predict"].get<int64_t>();
  return {};
}

}  // namespace

std::optional<ParseError> parse_ollama_chat(const json& body, GenRequest& out) {
  if (!body.is_object()) return ParseError{"request body must be a JSON object", ""};
  out.endpoint = Endpoint::OllamaChat;
  if (!body.contains("model") || !body["model"].is_string() || body["model"] == "")
    return ParseError{"model is required", "model"};
  out.model = body["model"];
  out.stream = !body.contains("stream") || !body["stream"].is_boolean() || body["stream"] == true;
  if (!body.contains("messages")) return ParseError{"messages is required", "messages"};
  if (auto err = read_messages(body["messages"], out.messages)) return err;
  if (body.contains("options") && !body["options"].is_null()) {
    if (auto err = read_options(body["options"], out)) return err;
  }
  if (body.contains("format") && body["format"].is_string() && body["format"] == "json")
    out.json_object = true;
  else if (body.contains("format") && body["format"].is_object())
    out.json_schema = body["format"];
  if (body.contains("tools") && !body["tools"].is_null()) {
    if (auto err = parse_tools(body["tools"], out.tools)) return err;
  }
  // think: true, or gpt-oss's "low" / "medium" / "high".
  if (body.contains("think") && body["think"].is_boolean() && body["think"] == true)
    out.reasoning_effort = "medium";
  else if (body.contains("think") && body["think"].is_string())
    out.reasoning_effort = body["think"];
  if (!out.reasoning_effort.empty() && out.reasoning_effort != "low" &&
      out.reasoning_effort != "medium" && out.reasoning_effort != "high")
    return ParseError{"invalid think value: " + out.reasoning_effort, "think"};
  out.prompt_tokens =
      std::make_shared<const std::vector<TokenId>>(render_chat(out.messages, out.tools, true));
  return {};
}

}  // namespace lb::sim
