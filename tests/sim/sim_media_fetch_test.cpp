// Media given by http(s) URL, fetched by the simulator as vLLM fetches them, from a loopback
// server: an image and a video are answered from the fetched pixels (with vLLM's User-Agent), a
// 404 is a 400 naming the URL in vLLM's words, https verifies the server against the lane's CA
// bundle, a file over the size limit and a fetch over its
// timeout are 400s too, and while a slow fetch is in flight the lane's I/O thread keeps serving.
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <thread>

#include "test_main.h"

#include "core/compare/fact_check.h"
#include "core/media/image_codec.h"
#include "core/media/known_scenes.h"
#include "core/plan/prompt_set.h"
#include "replay_server.h"
#include "sim_test_support.h"
#include "tls_frontend.h"

using namespace lb::sim;
using namespace lb::sim::test;
using nlohmann::json;

namespace {

struct FetchedFile {
  std::string type;
  std::string bytes;
  int64_t delay_us = 0;
};

lb::test::ResponseScript fetch_serve(const std::map<std::string, FetchedFile>& files,
                                     const lb::test::ServedRequest& r) {
  const auto it = files.find(r.target);
  if (it == files.end())
    return lb::test::error_script(404, "Not Found", {{"Content-Type", "text/plain"}});
  lb::test::ResponseScript script =
      lb::test::error_script(200, it->second.bytes, {{"Content-Type", it->second.type}});
  script.header_delay_us = it->second.delay_us;
  return script;
}

json fetch_part(bool video, const std::string& url) {
  const std::string type = video ? "video_url" : "image_url";
  return {{"type", type}, {type, {{"url", url}}}};
}

std::string fetch_ask(const json& part, const std::string& text) {
  return json{
      {"messages", {{{"role", "user"}, {"content", {part, {{"type", "text"}, {"text", text}}}}}}},
      {"max_tokens", 64},
      {"temperature", 0}}
      .dump();
}

std::string fetch_content(const HttpResult& r) {
  if (r.status != 200) return "<http " + std::to_string(r.status) + "> " + r.body;
  return json::parse(r.body)["choices"][0]["message"]["content"].get<std::string>();
}

}  // namespace

class SimMediaFetchTest : public QObject {
  Q_OBJECT
  lb::plan::PromptSet set_;
  std::map<std::string, FetchedFile> files_;
  std::unique_ptr<lb::test::ReplayServer> media_;

 private slots:
  void initTestCase() {
    auto loaded = lb::plan::load_prompt_set("builtin:multimodal-30");
    QVERIFY2(loaded.ok(), loaded.error_text().c_str());
    set_ = *loaded.set;
    files_["/word.png"] = {"image/png", lb::media::encode_png(lb::media::draw_word("ZEBRA")).bytes};
    files_["/clip.mp4"] = {"video/mp4", *set_.find("mm-video-01")->media[0].bytes};
    files_["/slow.png"] = files_["/word.png"];
    files_["/slow.png"].delay_us = 1'500'000;
    media_ = std::make_unique<lb::test::ReplayServer>(
        [this](const lb::test::ServedRequest& r) { return fetch_serve(files_, r); },
        lb::test::ServerOptions{2});
  }

  void an_image_and_a_video_are_answered_from_the_fetched_pixels() {
    auto bf16 = start_server("bf16?time_scale=0.001");
    const std::string word =
        fetch_content(http_request(bf16->port(), "POST", "/v1/chat/completions",
                                   fetch_ask(fetch_part(false, media_->url("/word.png")),
                                             "What word is written in the image?")));
    QCOMPARE(word, std::string("The word is ZEBRA."));
    const lb::plan::PromptSpec& video = *set_.find("mm-video-01");
    const std::string answer = fetch_content(
        http_request(bf16->port(), "POST", "/v1/chat/completions",
                     fetch_ask(fetch_part(true, media_->url("/clip.mp4")), video.prompt)));
    for (const auto& r : lb::compare::run_checks(video.checks, answer))
      QVERIFY2(r.status == lb::compare::CheckStatus::Pass, answer.c_str());
    const auto served = media_->served();
    QVERIFY(served.size() >= 2);
    QCOMPARE(served.back().header("user-agent"), std::string("vLLM/0.11.0"));
  }

  void https_is_fetched_with_the_lanes_ca_bundle() {
    QTemporaryDir dir;
    const auto cert = lb::test::make_self_signed_certificate(dir.path().toStdString());
    lb::test::TlsFrontend tls(media_->port(), cert);
    const std::string url = "https://127.0.0.1:" + std::to_string(tls.port()) + "/word.png";
    auto trusting = start_server("bf16?time_scale=0.001&media_ca_file=" + cert.cert_path);
    QCOMPARE(
        fetch_content(http_request(trusting->port(), "POST", "/v1/chat/completions",
                                   fetch_ask(fetch_part(false, url), "What word is written?"))),
        std::string("The word is ZEBRA."));
    // Without the bundle the self-signed certificate is refused, and the URL named.
    auto bf16 = start_server("bf16?time_scale=0.001");
    const auto r = http_request(bf16->port(), "POST", "/v1/chat/completions",
                                fetch_ask(fetch_part(false, url), "What word is written?"));
    QCOMPARE(r.status, 400);
    QVERIFY2(r.body.find("value=" + url) != std::string::npos, r.body.c_str());
  }

  void a_404_is_a_400_naming_the_url() {
    auto bf16 = start_server("bf16?time_scale=0.001");
    const std::string url = media_->url("/missing.png");
    const auto r = http_request(bf16->port(), "POST", "/v1/chat/completions",
                                fetch_ask(fetch_part(false, url), "What is it?"));
    QCOMPARE(r.status, 400);
    const json error = json::parse(r.body)["error"];
    QCOMPARE(
        error["message"].get<std::string>(),
        "Failed to fetch media from URL: HTTP 404 error (parameter=image_url, value=" + url + ")");
    QCOMPARE(error["type"].get<std::string>(), std::string("BadRequestError"));
    QCOMPARE(error["param"].get<std::string>(), std::string("image_url"));
    // Nothing listens on a closed port: libcurl's reason, the URL named.
    const std::string closed = "http://127.0.0.1:1/a.png";
    const auto refused = http_request(bf16->port(), "POST", "/v1/chat/completions",
                                      fetch_ask(fetch_part(false, closed), "What is it?"));
    QCOMPARE(refused.status, 400);
    QVERIFY2(refused.body.find("value=" + closed) != std::string::npos, refused.body.c_str());
  }

  void the_size_limit_and_the_timeout_are_400s() {
    auto small = start_server("bf16?time_scale=0.001&max_media_download_mb=0.0001");
    auto r = http_request(small->port(), "POST", "/v1/chat/completions",
                          fetch_ask(fetch_part(false, media_->url("/word.png")),
                                    "What word is written in the image?"));
    QCOMPARE(r.status, 400);
    QVERIFY2(r.body.find("Remote media download exceeds VLLM_MAX_MEDIA_DOWNLOAD_SIZE_MB=0.0001 "
                         "(received at least ") != std::string::npos,
             r.body.c_str());
    auto hasty = start_server("bf16?time_scale=0.001&image_fetch_timeout_s=0.3");
    r = http_request(hasty->port(), "POST", "/v1/chat/completions",
                     fetch_ask(fetch_part(false, media_->url("/slow.png")),
                               "What word is written in the image?"));
    QCOMPARE(r.status, 400);
    QVERIFY2(r.body.find("timed out after 0.3 s (VLLM_IMAGE_FETCH_TIMEOUT)") != std::string::npos,
             r.body.c_str());
    // A timeout must be positive.
    const auto bad = parse_lane_spec("bf16?video_fetch_timeout_s=0");
    QVERIFY(std::holds_alternative<std::string>(bad));
    QCOMPARE(std::get<std::string>(bad),
             std::string("invalid value \"0\" for option \"video_fetch_timeout_s\""));
  }

  void the_io_thread_serves_while_a_fetch_is_in_flight() {
    auto bf16 = start_server("bf16?time_scale=0.001");
    HttpResult slow;
    std::thread asker([&] {
      slow = http_request(bf16->port(), "POST", "/v1/chat/completions",
                          fetch_ask(fetch_part(false, media_->url("/slow.png")),
                                    "What word is written in the image?"));
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the fetch has begun
    const auto t0 = std::chrono::steady_clock::now();
    const auto text = http_request(bf16->port(), "POST", "/v1/chat/completions",
                                   chat_body("Hello", {{"max_tokens", 4}}));
    const auto waited_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    asker.join();
    QCOMPARE(text.status, 200);
    QVERIFY2(waited_ms < 1000, qPrintable(QString("a text request waited %1 ms").arg(waited_ms)));
    qInfo("a text request took %lld ms while a 1.5 s fetch was in flight", (long long)waited_ms);
    QCOMPARE(fetch_content(slow), std::string("The word is ZEBRA."));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimMediaFetchTest)
#include "sim_media_fetch_test.moc"
