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
  if (j.is_object() && j.contains("messages") && j["messages"].is_array() && !j["messages"].empty())
    return j["messages"].back().value("content", "");
  return {};
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
  if (r.target == "/health") return json_script("");
  if (r.target == "/metrics" && options_.metrics) {
    auto s = json_script(metrics_text());
    s.headers = {{"Content-Type", "text/plain; version=0.0.4"}};
    return s;
  }
  if (r.target == "/v1/chat/completions") return chat(r);
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
  const std::string& model = options_.model;
  const int64_t p = options_.prompt_tokens;
  std::vector<BodyPiece> pieces;
  pieces.push_back({chunk(model, {{"role", "assistant"}, {"content", ""}}, nullptr, p, 0), 0});
  const std::string first =
      options_.answer ? options_.answer(last_message(r.body)) : echo_prefix(r.body);
  for (int i = 0; i < options_.tokens; ++i) {
    const std::string text = i == 0 ? first : " t" + std::to_string(i);
    const bool last = i + 1 == options_.tokens;
    pieces.push_back(
        {chunk(model, {{"content", text}}, last ? nlohmann::json("length") : nullptr, p, i + 1),
         i == 0 ? options_.ttft_us : options_.itl_us});
  }
  nlohmann::json usage = {{"id", "chatcmpl-test"},
                          {"object", "chat.completion.chunk"},
                          {"created", 1760000000},
                          {"model", model},
                          {"choices", nlohmann::json::array()},
                          {"usage",
                           {{"prompt_tokens", p},
                            {"total_tokens", p + options_.tokens},
                            {"completion_tokens", options_.tokens}}}};
  pieces.push_back({"data: " + usage.dump() + "\n\ndata: [DONE]\n\n", 0});
  chat_tokens_.fetch_add(static_cast<uint64_t>(options_.tokens));
  ResponseScript s;
  s.pieces = std::move(pieces);
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
