// A simulator lane serving as Ollama (api=ollama) over HTTP: the routes Ollama's clients and
// LaneBench's probe know it by (GET /, /api/version, /api/tags, /v1/models owned_by library),
// none of vLLM's (/version, /metrics: Gin's plain 404), /api/chat streamed as NDJSON lines in
// Ollama's shape or whole with "stream": false, images given as bare base64 read from their
// pixels, Ollama's errors ({"error": "..."}: an unknown model 404, a text-only lane's "does not
// support vision" 400), and a bad `api` value named.
#include <QtTest>

#include "test_main.h"

#include "core/compare/fact_check.h"
#include "core/net/data_url.h"
#include "core/plan/prompt_set.h"
#include "sim_test_support.h"

using namespace lb::sim;
using namespace lb::sim::test;
using nlohmann::json;

namespace {

json ol_chat_body(const std::string& model, const std::string& text,
                  std::vector<std::string> images = {}) {
  json message = {{"role", "user"}, {"content", text}};
  if (!images.empty()) message["images"] = images;
  return {{"model", model},
          {"messages", {message}},
          {"options", {{"temperature", 0}, {"num_predict", 64}}}};
}

std::vector<json> ol_ndjson_lines(const std::string& body) {
  std::vector<json> out;
  size_t pos = 0;
  while (pos < body.size()) {
    const size_t end = body.find('\n', pos);
    const std::string line = body.substr(pos, end == std::string::npos ? end : end - pos);
    if (!line.empty()) out.push_back(json::parse(line));
    pos = end == std::string::npos ? body.size() : end + 1;
  }
  return out;
}

}  // namespace

class SimOllamaTest : public QObject {
  Q_OBJECT

 private slots:
  void theRoutesAreOllamasAndNotVllms() {
    auto lane = start_server("bf16?time_scale=0.001&api=ollama");
    QVERIFY(lane);
    const uint16_t port = lane->port();
    const auto root = http_request(port, "GET", "/");
    QCOMPARE(root.status, 200);
    QCOMPARE(root.body, "Ollama is running");
    const auto version = json::parse(http_request(port, "GET", "/api/version").body);
    QVERIFY(version["version"].is_string());
    const auto tags = json::parse(http_request(port, "GET", "/api/tags").body);
    QCOMPARE(tags["models"][0]["name"], "Qwen/Qwen3.8-27B");
    const auto models = json::parse(http_request(port, "GET", "/v1/models").body);
    QCOMPARE(models["data"][0]["owned_by"], "library");
    for (const char* path : {"/version", "/metrics", "/health"}) {
      const auto r = http_request(port, "GET", path);
      QCOMPARE(r.status, 404);
      QCOMPARE(r.body, "404 page not found");
    }
  }

  void apiChatStreamsNdjsonLinesAndAnswersWholeWithoutStream() {
    auto lane = start_server("bf16?time_scale=0.001&api=ollama");
    const json body = ol_chat_body("Qwen/Qwen3.8-27B", "Write about lighthouses.");
    const auto streamed = http_request(lane->port(), "POST", "/api/chat", body.dump());
    QCOMPARE(streamed.status, 200);
    QCOMPARE(streamed.headers.at("content-type"), "application/x-ndjson");
    QVERIFY(streamed.body.find("data:") == std::string::npos);
    const auto lines = ol_ndjson_lines(streamed.body);
    QVERIFY(lines.size() >= 3);
    std::string text;
    for (size_t i = 0; i + 1 < lines.size(); ++i) {
      QCOMPARE(lines[i]["done"], false);
      QCOMPARE(lines[i]["message"]["role"], "assistant");
      text += lines[i]["message"]["content"].get<std::string>();
    }
    const json& done = lines.back();
    QCOMPARE(done["done"], true);
    QCOMPARE(done["done_reason"], "length");  // filler runs to num_predict
    QCOMPARE(done["eval_count"], 64);
    QVERIFY(done["prompt_eval_count"].get<int64_t>() > 0);
    QVERIFY(done["total_duration"].get<int64_t>() >= done["eval_duration"].get<int64_t>());
    QVERIFY(done["created_at"].get<std::string>().ends_with("Z"));

    json whole_body = body;
    whole_body["stream"] = false;
    const auto whole = http_request(lane->port(), "POST", "/api/chat", whole_body.dump());
    QCOMPARE(whole.status, 200);
    const json answer = json::parse(whole.body);
    QCOMPARE(answer["done"], true);
    QCOMPARE(answer["message"]["content"].get<std::string>(), text);
  }

  void imagesAsBareBase64AreReadFromTheirPixels() {
    auto loaded = lb::plan::load_prompt_set("builtin:multimodal-30");
    QVERIFY2(loaded.ok(), loaded.error_text().c_str());
    auto lane = start_server("bf16?time_scale=0.001&api=ollama");
    int passed = 0, images = 0;
    for (const auto& p : loaded.set->prompts) {
      if (p.category != "image") continue;
      ++images;
      std::vector<std::string> encoded;
      for (const auto& m : p.media) encoded.push_back(lb::net::base64_encode(*m.bytes));
      json body = ol_chat_body("Qwen/Qwen3.8-27B", p.prompt, encoded);
      body["stream"] = false;
      const auto r = http_request(lane->port(), "POST", "/api/chat", body.dump());
      QCOMPARE(r.status, 200);
      const std::string answer = json::parse(r.body)["message"]["content"];
      bool all = true;
      for (const auto& c : lb::compare::run_checks(p.checks, answer))
        all = all && c.status == lb::compare::CheckStatus::Pass;
      passed += all ? 1 : 0;
    }
    QCOMPARE(images, 10);
    QCOMPARE(passed, 10);
  }

  void errorsAreOllamas() {
    auto lane = start_server("bf16?time_scale=0.001&api=ollama");
    const auto unknown =
        http_request(lane->port(), "POST", "/api/chat", ol_chat_body("llama9", "Hello").dump());
    QCOMPARE(unknown.status, 404);
    QCOMPARE(json::parse(unknown.body)["error"],
             "model \"llama9\" not found, try pulling it first");
    auto text_only = start_server("fp8?time_scale=0.001&api=ollama");
    const auto loaded = lb::plan::load_prompt_set("builtin:multimodal-30");
    QVERIFY2(loaded.ok(), loaded.error_text().c_str());
    const lb::plan::MediaRef& image = loaded.set->prompts.front().media.front();
    QCOMPARE(image.mime, "image/png");
    const std::string png = *image.bytes;
    const auto refused = http_request(
        text_only->port(), "POST", "/api/chat",
        ol_chat_body("Qwen/Qwen3.8-27B-FP8", "What is it?", {lb::net::base64_encode(png)}).dump());
    QCOMPARE(refused.status, 400);
    QCOMPARE(json::parse(refused.body)["error"], "Qwen/Qwen3.8-27B-FP8 does not support vision");
    const auto not_an_image =
        http_request(lane->port(), "POST", "/api/chat",
                     ol_chat_body("Qwen/Qwen3.8-27B", "What is it?", {"aGVsbG8="}).dump());
    QCOMPARE(not_an_image.status, 400);
    QVERIFY(json::parse(not_an_image.body)["error"].is_string());
    const auto bad = parse_lane_spec("bf16?api=tgi");
    QVERIFY(std::holds_alternative<std::string>(bad));
    QVERIFY(std::get<std::string>(bad).find("\"api\"") != std::string::npos);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimOllamaTest)
#include "sim_ollama_test.moc"
