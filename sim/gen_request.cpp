#include "gen_request.h"

namespace lb::sim {
namespace {

using nlohmann::json;

// The URL of an image or video content part: chat's {"type": "image_url", "image_url": {"url"}}
// (or a bare string), vLLM's "video_url", and the Responses API's {"type": "input_image",
// "image_url": "..."}.
std::optional<MediaPart> media_part(const json& part) {
  const std::string type = part.value("type", "");
  const bool video = type == "video_url";
  if (type != "image_url" && type != "input_image" && !video) return std::nullopt;
  const json& field = part.contains(type) ? part[type] : part.value("image_url", json());
  if (field.is_string()) return MediaPart{video, field.get<std::string>()};
  if (field.is_object() && field.contains("url") && field["url"].is_string()) {
    return MediaPart{video, field["url"].get<std::string>()};
  }
  return MediaPart{video, ""};
}

std::string content_text(const json& content, std::vector<MediaPart>* media = nullptr) {
  if (content.is_string()) return content.get<std::string>();
  std::string out;
  if (content.is_array()) {
    for (const auto& part : content) {
      if (auto m = part.is_object() ? media_part(part) : std::nullopt) {
        if (media) media->push_back(std::move(*m));
      } else if (part.is_object() && part.contains("text") && part["text"].is_string()) {
        out += part["text"].get<std::string>();
      } else if (part.is_string()) {
        out += part.get<std::string>();
      }
    }
  }
  return out;
}

void append_segment(std::vector<TokenId>& out, const std::string& role, const std::string& text,
                    const std::vector<TokenId>& media_tokens = {}) {
  out.push_back(SimTokenizer::kImStart);
  SimTokenizer::encode_append(role + "\n", out);
  out.insert(out.end(), media_tokens.begin(), media_tokens.end());
  SimTokenizer::encode_append(text, out);
  out.push_back(SimTokenizer::kImEnd);
  SimTokenizer::encode_append("\n", out);
}

std::optional<ParseError> parse_response_format(const json& body, GenRequest& out) {
  if (!body.contains("response_format") || body["response_format"].is_null()) return {};
  const json& rf = body["response_format"];
  if (!rf.is_object() || !rf.contains("type") || !rf["type"].is_string()) {
    return ParseError{"response_format must be an object with a type", "response_format"};
  }
  const std::string type = rf["type"];
  if (type == "json_schema") {
    const json* schema = nullptr;
    if (rf.contains("json_schema") && rf["json_schema"].is_object()) {
      const json& js = rf["json_schema"];
      if (js.contains("schema")) schema = &js["schema"];
    }
    if (!schema || !schema->is_object()) {
      return ParseError{"response_format.json_schema.schema must be an object", "response_format"};
    }
    out.json_schema = *schema;
  } else if (type == "json_object") {
    out.json_object = true;
  } else if (type != "text") {
    return ParseError{"Unknown response_format type: " + type, "response_format"};
  }
  return {};
}

// vLLM's checks: chat top_logprobs needs logprobs true; at most max_logprobs (20) alternatives.
std::optional<ParseError> parse_logprob_options(Endpoint endpoint, const json& body,
                                                GenRequest& out) {
  constexpr int64_t kMaxLogprobs = 20;
  const auto number = [&](const char* key, int64_t& n) -> std::optional<ParseError> {
    if (!body.contains(key) || body[key].is_null()) return {};
    if (!body[key].is_number_integer() || body[key].get<int64_t>() < 0)
      return ParseError{std::string("`") + key + "` must be a non-negative integer", key};
    n = body[key].get<int64_t>();
    if (n > kMaxLogprobs)
      return ParseError{"Requested sample logprobs of " + std::to_string(n) +
                            ", which is greater than max allowed: " + std::to_string(kMaxLogprobs),
                        key};
    return {};
  };
  int64_t top = 0;
  if (endpoint == Endpoint::Completions) {
    if (auto err = number("logprobs", top)) return err;
    out.logprobs = body.contains("logprobs") && !body["logprobs"].is_null();
    out.echo = body.contains("echo") && body["echo"].is_boolean() && body["echo"].get<bool>();
    if (body.contains("prompt_logprobs") && !body["prompt_logprobs"].is_null()) {
      int64_t prompt = 0;
      if (auto err = number("prompt_logprobs", prompt)) return err;
      if (body.value("stream", false))
        return ParseError{"`prompt_logprobs` are not available when `stream=True`.",
                          "prompt_logprobs"};
      out.prompt_logprobs = static_cast<int>(prompt);
    }
  } else {
    if (body.contains("logprobs") && body["logprobs"].is_boolean()) out.logprobs = body["logprobs"];
    if (auto err = number("top_logprobs", top)) return err;
    if (top > 0 && !out.logprobs)
      return ParseError{"when using `top_logprobs`, `logprobs` must be set to true.",
                        "top_logprobs"};
  }
  out.top_logprobs = static_cast<int>(top);
  const auto ids = body.find("return_tokens_as_token_ids");
  out.tokens_as_ids = ids != body.end() && ids->is_boolean() && ids->get<bool>();
  return {};
}

// temperature, top_p and seed, refused in vLLM's words when out of range.
std::optional<ParseError> parse_sampling(const json& body, GenRequest& out) {
  if (body.contains("temperature") && !body["temperature"].is_null()) {
    if (!body["temperature"].is_number() || body["temperature"].get<double>() < 0)
      return ParseError{"temperature must be non-negative, got " + body["temperature"].dump() + ".",
                        "temperature"};
    out.temperature = body["temperature"].get<double>();
  }
  if (body.contains("top_p") && !body["top_p"].is_null()) {
    if (!body["top_p"].is_number() || body["top_p"].get<double>() <= 0 ||
        body["top_p"].get<double>() > 1)
      return ParseError{"top_p must be in (0, 1], got " + body["top_p"].dump() + ".", "top_p"};
    out.top_p = body["top_p"].get<double>();
  }
  if (body.contains("seed") && !body["seed"].is_null()) {
    if (!body["seed"].is_number_integer())
      return ParseError{"seed must be an integer, got " + body["seed"].dump() + ".", "seed"};
    out.seed = body["seed"].get<int64_t>();
  }
  return {};
}

std::optional<ParseError> parse_common(const json& body, GenRequest& out) {
  if (body.contains("model") && !body["model"].is_null()) {
    if (!body["model"].is_string()) return ParseError{"model must be a string", "model"};
    out.model = body["model"];
  }
  out.stream = body.value("stream", false);
  if (body.contains("stream_options") && body["stream_options"].is_object()) {
    out.include_usage = body["stream_options"].value("include_usage", false);
    out.continuous_usage = body["stream_options"].value("continuous_usage_stats", false);
  }
  for (const char* key : {"max_tokens", "max_completion_tokens", "max_output_tokens"}) {
    if (!body.contains(key) || body[key].is_null()) continue;
    if (!body[key].is_number_integer() || body[key].get<int64_t>() < 1) {
      return ParseError{std::string(key) + " must be at least 1, got " + body[key].dump() + ".",
                        key};
    }
    out.max_tokens = body[key].get<int64_t>();
  }
  out.ignore_eos = body.value("ignore_eos", false);
  if (auto err = parse_sampling(body, out)) return err;
  std::string effort;
  if (body.contains("reasoning_effort") && body["reasoning_effort"].is_string()) {
    effort = body["reasoning_effort"];
  } else if (body.contains("reasoning") && body["reasoning"].is_object()) {
    effort = body["reasoning"].value("effort", "");
  }
  if (effort == "xhigh") effort = "high";
  if (effort == "minimal") effort = "low";
  if (!effort.empty() && effort != "low" && effort != "medium" && effort != "high" &&
      effort != "none") {
    return ParseError{"Invalid reasoning_effort: " + effort, "reasoning_effort"};
  }
  out.reasoning_effort = effort == "none" ? "" : effort;
  if (body.contains("tools") && !body["tools"].is_null()) {
    if (auto err = parse_tools(body["tools"], out.tools)) return err;
  }
  if (body.contains("tool_choice") && !body["tool_choice"].is_null()) {
    const json& tc = body["tool_choice"];
    if (tc.is_string()) {
      out.tool_choice = tc;
    } else if (tc.is_object() && tc.contains("function") && tc["function"].is_object()) {
      out.tool_choice = tc["function"].value("name", "auto");
    } else if (tc.is_object() && tc.contains("name")) {
      out.tool_choice = tc.value("name", "auto");
    }
  }
  out.parallel_tool_calls = body.value("parallel_tool_calls", true);
  return parse_response_format(body, out);
}

std::optional<ParseError> parse_responses_input(const json& body, GenRequest& out) {
  if (body.contains("instructions") && body["instructions"].is_string()) {
    out.messages.push_back({"system", body["instructions"].get<std::string>(), false, {}, {}});
  }
  if (!body.contains("input")) return ParseError{"Field required: input", "input"};
  const json& input = body["input"];
  if (input.is_string()) {
    out.messages.push_back({"user", input.get<std::string>(), false, {}, {}});
    return {};
  }
  if (!input.is_array()) return ParseError{"input must be a string or an array", "input"};
  for (const auto& item : input) {
    if (!item.is_object()) return ParseError{"input items must be objects", "input"};
    const std::string type = item.value("type", "message");
    if (type == "function_call_output") {
      out.messages.push_back({"tool", content_text(item.value("output", json(""))), false, {}, {}});
    } else if (type == "function_call") {
      out.messages.push_back({"assistant", item.dump(), true, {}, {}});
    } else {
      ChatMessage msg{item.value("role", "user"), {}, false, {}, {}};
      msg.text = content_text(item.value("content", json("")), &msg.media);
      out.messages.push_back(std::move(msg));
    }
  }
  return {};
}

}  // namespace

std::vector<TokenId> render_chat(const std::vector<ChatMessage>& messages,
                                 const std::vector<ToolSpec>& tools, bool add_generation_prompt) {
  std::vector<TokenId> out;
  if (!tools.empty()) {
    json list = json::array();
    for (const auto& t : tools) {
      list.push_back(
          {{"type", "function"}, {"function", {{"name", t.name}, {"parameters", t.parameters}}}});
    }
    append_segment(out, "system", "# Tools\n" + list.dump());
  }
  for (const auto& m : messages) append_segment(out, m.role, m.text, m.media_tokens);
  if (add_generation_prompt) {
    out.push_back(SimTokenizer::kImStart);
    SimTokenizer::encode_append("assistant\n", out);
  }
  return out;
}

std::optional<ParseError> parse_messages(const json& messages, std::vector<ChatMessage>& out) {
  if (!messages.is_array() || messages.empty()) {
    return ParseError{"messages must be a non-empty list", "messages"};
  }
  for (const auto& m : messages) {
    if (!m.is_object() || !m.contains("role") || !m["role"].is_string()) {
      return ParseError{"each message needs a string role", "messages"};
    }
    ChatMessage msg;
    msg.role = m["role"];
    msg.text = content_text(m.value("content", json("")), &msg.media);
    if (m.contains("tool_calls") && m["tool_calls"].is_array() && !m["tool_calls"].empty()) {
      msg.has_tool_calls = true;
      msg.text += m["tool_calls"].dump();
    }
    out.push_back(std::move(msg));
  }
  return {};
}

std::optional<ParseError> parse_tools(const json& tools, std::vector<ToolSpec>& out) {
  if (!tools.is_array()) return ParseError{"tools must be a list", "tools"};
  for (const auto& t : tools) {
    const json* fn = &t;
    if (t.is_object() && t.contains("function") && t["function"].is_object()) fn = &t["function"];
    if (!fn->is_object() || !fn->contains("name") || !(*fn)["name"].is_string()) {
      return ParseError{"each tool needs a function name", "tools"};
    }
    out.push_back({(*fn)["name"].get<std::string>(),
                   fn->value("parameters", json::object({{"type", "object"}}))});
  }
  return {};
}

std::optional<ParseError> parse_gen_request(Endpoint endpoint, const json& body, GenRequest& out) {
  if (!body.is_object()) return ParseError{"request body must be a JSON object", ""};
  out.endpoint = endpoint;
  if (auto err = parse_common(body, out)) return err;
  if (auto err = parse_logprob_options(endpoint, body, out)) return err;
  std::vector<TokenId> tokens;
  if (endpoint == Endpoint::Completions) {
    if (!body.contains("prompt")) return ParseError{"Field required: prompt", "prompt"};
    const json& p = body["prompt"];
    if (p.is_string()) {
      out.prompt_text = p;
    } else if (p.is_array() && p.size() == 1 && p[0].is_string()) {
      out.prompt_text = p[0];
    } else if (p.is_array() && !p.empty() && p[0].is_number_integer()) {
      for (const auto& id : p) {
        if (!id.is_number_integer() ||
            !SimTokenizer::valid_id(id.get<TokenId>() - out.token_id_offset)) {
          return ParseError{"prompt holds an invalid token id", "prompt"};
        }
        tokens.push_back(id.get<TokenId>() - out.token_id_offset);
      }
      out.prompt_text = SimTokenizer::decode(tokens);
    } else {
      return ParseError{"prompt must be a string, a list of one string or token ids", "prompt"};
    }
    if (tokens.empty()) tokens = SimTokenizer::encode(out.prompt_text);
  } else if (endpoint == Endpoint::Chat) {
    if (!body.contains("messages")) return ParseError{"Field required: messages", "messages"};
    if (auto err = parse_messages(body["messages"], out.messages)) return err;
    tokens = render_chat(out.messages, out.tools, true);
  } else {
    if (auto err = parse_responses_input(body, out)) return err;
    tokens = render_chat(out.messages, out.tools, true);
  }
  out.prompt_tokens = std::make_shared<const std::vector<TokenId>>(std::move(tokens));
  return {};
}

std::string last_user_text(const GenRequest& request) {
  if (request.endpoint == Endpoint::Completions) return request.prompt_text;
  for (auto it = request.messages.rbegin(); it != request.messages.rend(); ++it) {
    if (it->role == "user") return it->text;
  }
  return {};
}

std::string full_prompt_text(const GenRequest& request) {
  if (request.endpoint == Endpoint::Completions) return request.prompt_text;
  std::string out;
  for (const auto& m : request.messages) {
    out += m.text;
    out += '\n';
  }
  return out;
}

}  // namespace lb::sim
