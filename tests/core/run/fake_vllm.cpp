#include "fake_vllm.h"

#include <nlohmann/json.hpp>

namespace lb::test {

FakeVllm::FakeVllm(FakeVllmOptions options) : options_(std::move(options)) {
  ServerOptions so;
  so.threads = options_.threads;
  server_ =
      std::make_unique<ReplayServer>([this](const ServedRequest& r) { return answer(r); }, so);
}

std::string FakeVllm::base_url() const { return server_->base_url() + "/v1"; }

std::string FakeVllm::last_message(const std::string& body) {
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("messages") || !j["messages"].is_array() ||
      j["messages"].empty())
    return {};
  const auto& content = j["messages"].back()["content"];
  if (content.is_string()) return content.get<std::string>();
  std::string text;  // content parts: the text ones, as vLLM joins them
  if (content.is_array())
    for (const auto& part : content)
      if (part.is_object() && part.value("type", "") == "text") text += part.value("text", "");
  return text;
}

std::string FakeVllm::echo_prefix(const std::string& body) {
  return "echo:" + last_message(body).substr(0, 24);
}

namespace {
ResponseScript json_script(std::string body) {
  ResponseScript s;
  s.headers = {{"Content-Type", "application/json"}, {"server", "uvicorn"}};
  s.pieces = {{std::move(body), 0}};
  s.framing = BodyFraming::ContentLength;
  return s;
}

std::string chunk(const std::string& model, const nlohmann::json& delta,
                  const nlohmann::json& finish, int64_t prompt, int64_t completion) {
  nlohmann::json c = {
      {"id", "chatcmpl-test"},
      {"object", "chat.completion.chunk"},
      {"created", 1760000000},
      {"model", model},
      {"choices",
       {{{"index", 0}, {"delta", delta}, {"logprobs", nullptr}, {"finish_reason", finish}}}},
      {"usage",
       {{"prompt_tokens", prompt},
        {"total_tokens", prompt + completion},
        {"completion_tokens", completion}}}};
  return "data: " + c.dump() + "\n\n";
}

nlohmann::json usage_chunk(const std::string& model, int64_t prompt, int64_t completion) {
  return {{"id", "chatcmpl-test"},
          {"object", "chat.completion.chunk"},
          {"created", 1760000000},
          {"model", model},
          {"choices", nlohmann::json::array()},
          {"usage",
           {{"prompt_tokens", prompt},
            {"total_tokens", prompt + completion},
            {"completion_tokens", completion}}}};
}

// The text in pieces of one word each, a word's leading space kept with it.
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (out.empty() || text[i] == ' ') out.emplace_back();
    out.back() += text[i];
  }
  return out;
}

int64_t token_count(const FakeMessage& m) {
  return static_cast<int64_t>(words(m.reasoning).size() + words(m.content).size() +
                              2 * m.tool_calls.size());
}

std::string finish_reason(const FakeMessage& m) {
  return m.tool_calls.empty() ? "stop" : "tool_calls";
}

nlohmann::json tool_call_fragment(size_t index, const nlohmann::json& call, bool head) {
  nlohmann::json function;
  if (head) function["name"] = call["name"];
  if (!head) function["arguments"] = call["arguments"];
  nlohmann::json fragment = {{"index", index}, {"function", function}};
  if (head)
    fragment.update({{"id", "chatcmpl-tool-" + std::to_string(index)}, {"type", "function"}});
  return fragment;
}

// A non-streamed chat.completion, as vLLM sends it.
nlohmann::json chat_document(const std::string& model, const FakeMessage& m, int64_t prompt) {
  nlohmann::json calls = nlohmann::json::array();
  for (size_t i = 0; i < m.tool_calls.size(); ++i) {
    nlohmann::json call = tool_call_fragment(i, m.tool_calls[i], true);
    call["function"]["arguments"] = m.tool_calls[i]["arguments"];
    call.erase("index");
    calls.push_back(std::move(call));
  }
  nlohmann::json message = {{"role", "assistant"}, {"content", m.content}, {"tool_calls", calls}};
  message["reasoning_content"] =
      m.reasoning.empty() ? nlohmann::json(nullptr) : nlohmann::json(m.reasoning);
  nlohmann::json choice = {{"index", 0},
                           {"message", message},
                           {"logprobs", nullptr},
                           {"finish_reason", finish_reason(m)}};
  nlohmann::json doc = usage_chunk(model, prompt, token_count(m));
  doc["object"] = "chat.completion";
  doc["choices"] = nlohmann::json::array({choice});
  return doc;
}

std::string responses_event(const std::string& type, int64_t sequence, nlohmann::json data) {
  data["type"] = type;
  data["sequence_number"] = sequence;
  return "event: " + type + "\ndata: " + data.dump() + "\n\n";
}

// A /v1/responses response object holding one message of `text`.
nlohmann::json response_object(const std::string& model, const std::string& text, int64_t prompt,
                               int64_t completion) {
  nlohmann::json part = {
      {"type", "output_text"}, {"text", text}, {"annotations", nlohmann::json::array()}};
  nlohmann::json item = {{"id", "msg_test"},
                         {"type", "message"},
                         {"role", "assistant"},
                         {"status", "completed"},
                         {"content", nlohmann::json::array({part})}};
  return {{"id", "resp_test"},
          {"object", "response"},
          {"created_at", 1760000000},
          {"model", model},
          {"status", "completed"},
          {"output", nlohmann::json::array({item})},
          {"usage",
           {{"input_tokens", prompt},
            {"output_tokens", completion},
            {"total_tokens", prompt + completion}}}};
}
}  // namespace

ResponseScript FakeVllm::answer(const ServedRequest& r) {
  if (r.target == "/v1/models") {
    nlohmann::json card = {{"id", options_.model},
                           {"object", "model"},
                           {"owned_by", "vllm"},
                           {"root", options_.model},
                           {"max_model_len", options_.max_model_len}};
    return json_script(nlohmann::json({{"object", "list"}, {"data", {card}}}).dump());
  }
  if (r.target == "/version") return json_script(R"({"version":"0.11.0"})");
  if (r.target == "/health") {
    ResponseScript s = json_script("");
    if (options_.healthy && !options_.healthy()) s.status = 503;
    return s;
  }
  if (r.target == "/metrics" && options_.metrics) {
    auto s = json_script(metrics_text());
    s.headers = {{"Content-Type", "text/plain; version=0.0.4"}};
    return s;
  }
  if (r.target == "/v1/chat/completions") return chat(r);
  if (r.target == "/v1/responses" && options_.responses) return responses(r);
  return error_script(404, R"({"detail":"Not Found"})");
}

ResponseScript FakeVllm::chat(const ServedRequest& r) {
  const uint64_t n = chat_requests_.fetch_add(1) + 1;
  const int status = options_.status_for ? options_.status_for(n) : 200;
  if (status == 429)
    return error_script(
        429,
        R"({"error":{"message":"Too many requests","type":"RateLimitError","param":null,"code":429}})",
        {{"Retry-After", "2"}});
  if (status == 401) {
    // As OpenAI's API does: the refusal quotes the key it was given.
    std::string key = "(none)";
    for (const auto& [name, value] : r.headers)
      if (name == "authorization" && value.rfind("Bearer ", 0) == 0) key = value.substr(7);
    return error_script(401, R"({"error":{"message":"Incorrect API key provided: )" + key +
                                 R"(.","type":"invalid_request_error","code":"invalid_api_key"}})");
  }
  if (status != 200)
    return error_script(
        status,
        R"({"error":{"message":"Internal server error","type":"InternalServerError","param":null,"code":)" +
            std::to_string(status) + "}}");
  const auto request = nlohmann::json::parse(r.body, nullptr, false);
  if (options_.refuse)
    if (std::string why = options_.refuse(request); !why.empty()) return error_script(400, why);
  if (options_.script)
    if (std::optional<ResponseScript> s = options_.script(request)) return std::move(*s);
  const bool stream = !request.is_object() || request.value("stream", true);
  if (options_.message) return chat_message(options_.message(request), stream);
  const std::string& model = options_.model;
  const int64_t p = options_.prompt_tokens;
  const std::string first =
      options_.answer ? options_.answer(last_message(r.body)) : echo_prefix(r.body);
  if (!stream) {
    FakeMessage whole{first};
    for (int i = 1; i < options_.tokens; ++i) whole.content += " t" + std::to_string(i);
    chat_tokens_.fetch_add(static_cast<uint64_t>(options_.tokens));
    return json_script(chat_document(model, whole, p).dump());
  }
  std::vector<BodyPiece> pieces;
  pieces.push_back({chunk(model, {{"role", "assistant"}, {"content", ""}}, nullptr, p, 0), 0});
  for (int i = 0; i < options_.tokens; ++i) {
    const std::string text = i == 0 ? first : " t" + std::to_string(i);
    const bool last = i + 1 == options_.tokens;
    pieces.push_back(
        {chunk(model, {{"content", text}}, last ? nlohmann::json("length") : nullptr, p, i + 1),
         i == 0 ? options_.ttft_us : options_.itl_us});
  }
  pieces.push_back(
      {"data: " + usage_chunk(model, p, options_.tokens).dump() + "\n\ndata: [DONE]\n\n", 0});
  chat_tokens_.fetch_add(static_cast<uint64_t>(options_.tokens));
  ResponseScript s;
  s.pieces = std::move(pieces);
  return s;
}

ResponseScript FakeVllm::chat_message(const FakeMessage& m, bool stream) const {
  const std::string& model = options_.model;
  const int64_t p = options_.prompt_tokens;
  if (!stream) return json_script(chat_document(model, m, p).dump());
  ResponseScript s;
  s.pieces.push_back({chunk(model, {{"role", "assistant"}, {"content", ""}}, nullptr, p, 0), 0});
  int64_t n = 0;
  const auto add = [&](const nlohmann::json& delta) {
    ++n;
    s.pieces.push_back(
        {chunk(model, delta, nullptr, p, n), n == 1 ? options_.ttft_us : options_.itl_us});
  };
  for (const auto& w : words(m.reasoning)) add({{"reasoning_content", w}});
  for (const auto& w : words(m.content)) add({{"content", w}});
  for (size_t i = 0; i < m.tool_calls.size(); ++i) {
    for (const bool head : {true, false})
      add({{"tool_calls", nlohmann::json::array({tool_call_fragment(i, m.tool_calls[i], head)})}});
  }
  if (!m.stream_ends) return s;
  s.pieces.push_back({chunk(model, {{"content", ""}}, finish_reason(m), p, n), 0});
  s.pieces.push_back({"data: " + usage_chunk(model, p, n).dump() + "\n\ndata: [DONE]\n\n", 0});
  return s;
}

ResponseScript FakeVllm::responses(const ServedRequest& r) const {
  const auto request = nlohmann::json::parse(r.body, nullptr, false);
  const FakeMessage m = options_.responses(request);
  const auto pieces = words(m.content);
  const auto n = static_cast<int64_t>(pieces.size());
  const nlohmann::json done = response_object(options_.model, m.content, options_.prompt_tokens, n);
  if (!request.is_object() || !request.value("stream", false)) return json_script(done.dump());
  nlohmann::json started = done;
  started["status"] = "in_progress";
  started["output"] = nlohmann::json::array();
  started["usage"] = nullptr;
  ResponseScript s;
  int64_t seq = 0;
  s.pieces.push_back({responses_event("response.created", seq++, {{"response", started}}), 0});
  for (const auto& w : pieces) {
    nlohmann::json delta = {
        {"delta", w}, {"item_id", "msg_test"}, {"output_index", 0}, {"content_index", 0}};
    s.pieces.push_back({responses_event("response.output_text.delta", seq, delta),
                        seq == 1 ? options_.ttft_us : options_.itl_us});
    ++seq;
  }
  if (m.stream_ends)
    s.pieces.push_back({responses_event("response.completed", seq, {{"response", done}}), 0});
  return s;
}

std::string FakeVllm::metrics_text() const {
  const double n = static_cast<double>(chat_requests_.load());
  const double gen = static_cast<double>(chat_tokens_.load());
  const std::string labels = "{model_name=\"" + options_.model + "\",engine=\"0\"}";
  std::string t;
  t += "# HELP vllm:prefix_cache_queries Prefix cache queries.\n";
  t += "# TYPE vllm:prefix_cache_queries counter\n";
  t += "vllm:prefix_cache_queries_total" + labels + " " + std::to_string(100 * n) + "\n";
  t += "# TYPE vllm:prefix_cache_hits counter\n";
  t += "vllm:prefix_cache_hits_total" + labels + " " + std::to_string(25 * n) + "\n";
  t += "# TYPE vllm:generation_tokens counter\n";
  t += "vllm:generation_tokens_total" + labels + " " + std::to_string(gen) + "\n";
  t += "# TYPE vllm:cache_config_info gauge\n";
  t += "vllm:cache_config_info{block_size=\"16\",cache_dtype=\"auto\",enable_prefix_caching="
       "\"True\","
       "num_gpu_blocks=\"4096\"} 1.0\n";
  return t;
}

}  // namespace lb::test
