// Requests that carry images and videos: the chat body's `image_url` / `video_url` parts (data:
// and http(s) URLs), the Responses API's `input_image`, Ollama's bare-base64 `images`; what each
// request records about its media; media over the lane's limit refused before sending; and a
// run against a vLLM look-alike on loopback that receives the parts and refuses images.
#include <QtTest>

#include "test_main.h"

#include "collecting_sink.h"
#include "core/metrics/request_metrics.h"
#include "core/metrics/summary.h"
#include "core/net/data_url.h"
#include "core/run/drive/load_driver.h"
#include "core/run/drive/media_request_bodies.h"
#include "fake_vllm.h"
#include "test_media.h"

using namespace lb::run;
using lb::test::FakeVllm;
using lb::test::FakeVllmOptions;
using nlohmann::json;

namespace {

lb::plan::PromptSpec two_turn_prompt() {
  lb::plan::PromptSpec p;
  p.id = "mm-1";
  p.category = "mixed";
  p.messages = {{"system", "Answer briefly."},
                {"user", "Hello"},
                {"assistant", "Hi."},
                {"user", "How many circles are there?"}};
  p.media = {lb::test::png_media(64, 48, Qt::red, "imgs/red.png"),
             lb::test::video_media(32, 24, 8, 900, "clips/square.mp4"),
             lb::test::url_media("https://example.org/cat.jpg?sig=abc")};
  return p;
}

ChatRequestOptions options() {
  ChatRequestOptions o;
  o.model = "m";
  o.max_tokens = 16;
  o.server = ServerKind::Vllm;
  return o;
}

std::string data_payload(const std::string& url) { return url.substr(url.find(',') + 1); }

}  // namespace

class TestMediaRequests : public QObject {
  Q_OBJECT
 private slots:
  void chatBodyPutsMediaBeforeTheLastUserText() {
    const auto prompt = two_turn_prompt();
    const RequestBody built = prompt_request_body(prompt, options());
    QVERIFY2(built.refused.empty(), built.refused.c_str());
    const json body = json::parse(*built.body);
    const json& msgs = body["messages"];
    QCOMPARE(msgs.size(), size_t{4});
    QCOMPARE(msgs[1]["content"], "Hello");  // an earlier user message stays plain text
    const json& parts = msgs[3]["content"];
    QCOMPARE(parts.size(), size_t{4});
    QCOMPARE(parts[0]["type"], "image_url");
    const std::string image_url = parts[0]["image_url"]["url"];
    QVERIFY(image_url.rfind("data:image/png;base64,", 0) == 0);
    QCOMPARE(*lb::net::base64_decode(data_payload(image_url)), *prompt.media[0].bytes);
    QCOMPARE(parts[1]["type"], "video_url");
    const std::string video_url = parts[1]["video_url"]["url"];
    QVERIFY(video_url.rfind("data:video/mp4;base64,", 0) == 0);
    QCOMPARE(*lb::net::base64_decode(data_payload(video_url)), *prompt.media[1].bytes);
    QCOMPARE(parts[2]["image_url"]["url"], "https://example.org/cat.jpg?sig=abc");
    QCOMPARE(parts[3], json({{"type", "text"}, {"text", "How many circles are there?"}}));
    QCOMPARE(body["stream"], true);
  }

  void eachRequestRecordsItsMedia() {
    const auto prompt = two_turn_prompt();
    const RequestBody built = prompt_request_body(prompt, options());
    const auto& m = built.media;
    QCOMPARE(m.count("image"), int64_t{2});
    QCOMPARE(m.count("video"), int64_t{1});
    const auto png_size = static_cast<int64_t>(prompt.media[0].bytes->size());
    QCOMPARE(m.bytes(), png_size + 900);
    QCOMPARE(m.pixels(), int64_t{64 * 48 + 32 * 24 * 8});
    QCOMPARE(m.frames(), int64_t{8});
    QVERIFY(m.encode_ns > 0);
    const json j = lb::metrics::to_json(m);
    QCOMPARE(j["items"][0]["sha256"], lb::net::sha256_hex(*prompt.media[0].bytes));
    QCOMPARE(j["items"][0]["source"], "imgs/red.png");
    QCOMPARE(j["items"][2]["by_url"], true);
    QCOMPARE(j["items"][2]["source"], "https://example.org/cat.jpg");  // the query is not kept
    QVERIFY(!lb::net::contains_data_url(j.dump()));
    // A text-only prompt's body is the plain chat body, with nothing recorded.
    lb::plan::PromptSpec text;
    text.prompt = "Plain question";
    const RequestBody plain = prompt_request_body(text, options());
    QCOMPARE(*plain.body, *chat_request_body(text.chat(), options()));
    QVERIFY(plain.media.empty());
  }

  void responsesBodyUsesInputImage() {
    auto prompt = two_turn_prompt();
    const RequestBody with_video = responses_request_body(prompt, options());
    QVERIFY(with_video.body == nullptr);
    QVERIFY2(
        with_video.refused.find("no video input (video clips/square.mp4)") != std::string::npos,
        with_video.refused.c_str());
    prompt.media.erase(prompt.media.begin() + 1);
    const RequestBody built = responses_request_body(prompt, options());
    QVERIFY2(built.refused.empty(), built.refused.c_str());
    const json body = json::parse(*built.body);
    const json& parts = body["input"][3]["content"];
    QCOMPARE(parts[0]["type"], "input_image");
    QVERIFY(parts[0]["image_url"].get<std::string>().rfind("data:image/png;base64,", 0) == 0);
    QCOMPARE(parts[1]["image_url"], "https://example.org/cat.jpg?sig=abc");
    QCOMPARE(parts[2], json({{"type", "input_text"}, {"text", "How many circles are there?"}}));
    QCOMPARE(body["max_output_tokens"], 16);
    QCOMPARE(body["input"][0]["content"], "Answer briefly.");
  }

  void ollamaBodyUsesBareBase64Images() {
    auto prompt = two_turn_prompt();
    QVERIFY(ollama_chat_request_body(prompt, options()).refused.find("images only") !=
            std::string::npos);
    prompt.media.erase(prompt.media.begin() + 1);  // the video
    const std::string url_refused = ollama_chat_request_body(prompt, options()).refused;
    QVERIFY2(url_refused.find("image https://example.org/cat.jpg is a URL") != std::string::npos,
             url_refused.c_str());
    QVERIFY(url_refused.find("sig=") == std::string::npos);  // a URL's query is not written down
    prompt.media.pop_back();                                 // the URL
    prompt.media.push_back(lb::test::png_media(8, 8, Qt::blue, "imgs/blue.png"));
    const RequestBody built = ollama_chat_request_body(prompt, options());
    QVERIFY2(built.refused.empty(), built.refused.c_str());
    const json body = json::parse(*built.body);
    const json& last = body["messages"][3];
    QCOMPARE(last["content"], "How many circles are there?");
    QCOMPARE(last["images"].size(), size_t{2});
    QCOMPARE(last["images"][0], lb::net::base64_encode(*prompt.media[0].bytes));
    QCOMPARE(last["images"][1], lb::net::base64_encode(*prompt.media[1].bytes));
    QVERIFY(!body["messages"][1].contains("images"));
    QCOMPARE(body["options"]["num_predict"], 16);
  }

  void oversizedMediaAreRefusedBeforeSending() {
    json received;
    std::mutex mutex;
    FakeVllmOptions o;
    o.message = [&](const json& request) {
      std::lock_guard lock(mutex);
      received = request;
      return lb::test::FakeMessage{"three circles"};
    };
    FakeVllm server(o);
    auto lane = endpoint_from_base_url("lane", server.base_url());
    lane.model = "test-org/test-model-8b";
    std::vector<lb::plan::PromptSpec> prompts(2);
    prompts[0].id = "small";
    prompts[0].prompt = "Count the circles.";
    prompts[0].media = {lb::test::png_media(16, 16, Qt::green, "imgs/small.png")};
    prompts[1].id = "large";
    prompts[1].prompt = "Count the circles.";
    prompts[1].media = {lb::test::video_media(64, 64, 4, 50'000, "clips/large.mp4")};
    LoadPhase phase;
    phase.experiment = "regression";
    phase.phase = "greedy";
    phase.lane = &lane;
    phase.url = lane.api_url("/chat/completions");
    phase.count = 2;
    phase.request_at = [&](int64_t n, bool) {
      auto o = options();
      o.max_media_bytes = 10'000;
      RequestBody built = prompt_request_body(prompts[static_cast<size_t>(n)], o);
      PlannedRequest r;
      r.index = n;
      r.body = std::move(built.body);
      r.media = std::move(built.media);
      r.refused = std::move(built.refused);
      return r;
    };
    lb::net::StreamClient client;
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    const auto out = LoadDriver(client, sink, stop).run(phase, [](const auto&) {});
    QCOMPARE(out.records.size(), size_t{2});
    QCOMPARE(server.chat_requests(), uint64_t{1});  // the large one never left the client
    for (const auto& rec : out.records) {
      const json line = lb::metrics::to_json(rec, lb::metrics::compute_request_metrics(rec));
      QCOMPARE(line["media"]["items"].size(), size_t{1});
      if (rec.index == 1) {
        QCOMPARE(rec.result.error, lb::net::ErrorKind::Refused);
        QCOMPARE(line["error"]["kind"], "refused");
        const std::string why = rec.result.error_message;
        QVERIFY2(why.find("max_media_bytes (10000)") != std::string::npos, why.c_str());
        QVERIFY2(why.find("video clips/large.mp4 (50000 bytes)") != std::string::npos, why.c_str());
        QCOMPARE(line["media"]["bytes"], 50'000);
        QCOMPARE(line["media"]["frames"], 4);
      } else {
        QCOMPARE(rec.result.error, lb::net::ErrorKind::None);
        QCOMPARE(rec.result.content, "three circles");
        QVERIFY(line["media"]["encode_ms"].get<double>() > 0);
        QCOMPARE(line["media"]["pixels"], 256);
        QVERIFY(line["ttft_ms"].get<double>() > 0);
        // Encoding happened before the request was scheduled, so not in the queue either.
        QVERIFY(rec.t_sched_ns <= rec.result.t_sent_ns);
      }
    }
    std::lock_guard lock(mutex);
    const json& parts = received["messages"][0]["content"];
    QCOMPARE(parts[0]["type"], "image_url");
    QCOMPARE(*lb::net::base64_decode(data_payload(parts[0]["image_url"]["url"])),
             *prompts[0].media[0].bytes);
    QCOMPARE(parts[1]["text"], "Count the circles.");
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestMediaRequests)
#include "run_media_requests_test.moc"
