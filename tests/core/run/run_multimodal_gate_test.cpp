// The multimodal gate against vLLM look-alikes on loopback: a server that answers from the
// pixels it was sent passes n/N per input kind; wrong answers fail with the prompt and its kind
// named; a server that refuses images as vLLM does with --limit-mm-per-prompt 0 is "multimodal
// unsupported" after one request, with no data: URL in what is recorded. Also the plan keys.
#include <QtTest>

#include "test_main.h"

#include "collecting_sink.h"
#include "core/net/data_url.h"
#include "core/plan/plan.h"
#include "core/record/run_folder_writer.h"
#include "core/run/experiments/multimodal_gate.h"
#include "fake_vllm.h"
#include "run_folder_reader.h"
#include "test_media.h"

using namespace lb::run;
using lb::test::FakeVllm;
using lb::test::FakeVllmOptions;
using nlohmann::json;

namespace {

const char* kVllmLimitZero =
    "{\"error\":{\"message\":\"At most 0 image(s) may be provided in one request.\","
    "\"type\":\"BadRequestError\",\"param\":null,\"code\":400}}";

lb::plan::PromptSpec prompt(const std::string& id, const std::string& category,
                            std::vector<lb::plan::MediaRef> media, const std::string& fact) {
  lb::plan::PromptSpec p;
  p.id = id;
  p.category = category;
  p.prompt = "What colour is the first image, and how large is the video?";
  p.media = std::move(media);
  p.checks.push_back({lb::plan::CheckType::MustContain, fact, true});
  return p;
}

lb::plan::PromptSet colour_set() {
  lb::plan::PromptSet set;
  set.name = "test:colours";
  set.prompts = {
      prompt("red", "image", {lb::test::png_media(24, 16, Qt::red, "red.png")}, "red"),
      prompt("blue", "image", {lb::test::png_media(16, 16, Qt::blue, "blue.png")}, "blue"),
      prompt("clip", "video", {lb::test::video_media(8, 8, 3, 700, "clip.mp4")}, "700 bytes"),
      prompt("both", "mixed",
             {lb::test::png_media(8, 8, Qt::red, "red-small.png"),
              lb::test::video_media(8, 8, 2, 300, "short.mp4")},
             "red")};
  return set;
}

// What a vision model would say: the colour of the first image's centre pixel and each video's
// size, read from the data: URLs of the last message.
std::string describe_media(const json& request) {
  std::string answer;
  for (const auto& part : request["messages"].back()["content"]) {
    const std::string type = part.value("type", "");
    if (type != "image_url" && type != "video_url") continue;
    const std::string url = part[type]["url"];
    const auto bytes = lb::net::base64_decode(url.substr(url.find(',') + 1));
    if (!bytes) return "unreadable media";
    if (type == "video_url") {
      answer += " a video of " + std::to_string(bytes->size()) + " bytes";
      continue;
    }
    const QImage image = QImage::fromData(QByteArray::fromStdString(*bytes), "PNG");
    const QColor c = image.pixelColor(image.width() / 2, image.height() / 2);
    answer += c == QColor(Qt::red) ? " red" : c == QColor(Qt::blue) ? " blue" : " grey";
  }
  return "I see" + answer + ".";
}

struct GateRun {
  json gate;
  std::vector<json> requests;
  std::shared_ptr<lb::test::CollectingSink> sink = std::make_shared<lb::test::CollectingSink>();
};

GateRun run_gate(const FakeVllm& server, const lb::plan::PromptSet& set,
                 int64_t max_media_bytes = lb::plan::kDefaultMaxMediaBytes) {
  const auto dir = lb::test::fresh_dir("lb-multimodal-gate");
  LaneRuntime lane;
  lane.plan.id = "lane";
  lane.plan.max_media_bytes = max_media_bytes;
  lane.endpoint = endpoint_from_base_url("lane", server.base_url());
  lane.endpoint.model = "test-org/test-model-8b";
  lb::net::StreamClient client;
  std::atomic<bool> stop{false};
  lb::plan::Experiment spec;
  spec.kind = "gates";
  json section;
  GateRun out;
  {
    lb::record::RunFolderWriter writer(dir.string());
    ExperimentContext ctx(client, *out.sink, writer, stop, spec, {&lane}, section);
    GateIo io(ctx, lane);
    io.set_check("multimodal");
    out.gate = lb::record::to_json(run_multimodal_gate(ctx, io, set));
  }
  out.requests = lb::test::read_jsonl(dir / "requests.jsonl");
  std::filesystem::remove_all(dir);
  return out;
}

}  // namespace

class TestMultimodalGate : public QObject {
  Q_OBJECT
 private slots:
  void aServerReadingThePixelsPassesPerKind() {
    FakeVllmOptions o;
    o.message = [](const json& request) { return lb::test::FakeMessage{describe_media(request)}; };
    FakeVllm server(o);
    const auto run = run_gate(server, colour_set());
    QVERIFY2(run.gate["status"] == "pass", run.gate.dump().c_str());
    QCOMPARE(run.gate["score"], "4/4");
    QCOMPARE(run.gate["kinds"]["image"]["score"], "2/2");
    QCOMPARE(run.gate["kinds"]["video"]["score"], "1/1");
    QCOMPARE(run.gate["kinds"]["mixed"]["score"], "1/1");
    QCOMPARE(run.requests.size(), size_t{4});
    for (const auto& line : run.requests) {
      QCOMPARE(line["phase"], "multimodal");
      QVERIFY(line["media"]["bytes"].get<int64_t>() > 0);
    }
    QCOMPARE(run.requests[3]["media"]["images"], 1);
    QCOMPARE(run.requests[3]["media"]["videos"], 1);
    QCOMPARE(run.requests[3]["media"]["frames"], 2);
    QCOMPARE(run.requests[0]["media"]["pixels"], 24 * 16);
  }

  void wrongAnswersFailNamingThePromptAndItsKind() {
    FakeVllmOptions o;
    o.message = [](const json& request) {
      std::string answer = describe_media(request);
      if (answer.find("blue") != std::string::npos) answer = "I see green.";
      return lb::test::FakeMessage{answer};
    };
    FakeVllm server(o);
    const auto run = run_gate(server, colour_set());
    QCOMPARE(run.gate["status"], "fail");
    QCOMPARE(run.gate["score"], "3/4");
    QCOMPARE(run.gate["kinds"]["image"]["score"], "1/2");
    QCOMPARE(run.gate["kinds"]["video"]["score"], "1/1");
    QCOMPARE(run.gate["failures"].size(), size_t{1});
    QCOMPARE(run.gate["failures"][0]["id"], "blue");
    QCOMPARE(run.gate["failures"][0]["kind"], "image");
    QVERIFY(run.gate["failures"][0]["why"].get<std::string>().find("blue") != std::string::npos);
  }

  void aServerRefusingImagesIsMultimodalUnsupported() {
    FakeVllmOptions o;
    o.refuse = [](const json& request) {
      return request["messages"].back()["content"].is_array() ? std::string(kVllmLimitZero)
                                                              : std::string();
    };
    FakeVllm server(o);
    const auto run = run_gate(server, colour_set());
    QCOMPARE(run.gate["status"], "unsupported");
    QCOMPARE(run.gate["unsupported"], kMultimodalUnsupported);
    QVERIFY(run.gate["why"].get<std::string>().find("At most 0 image(s)") != std::string::npos);
    QCOMPARE(server.chat_requests(), uint64_t{1});  // the server said so once: not asked again
    QCOMPARE(run.requests.size(), size_t{1});
    QCOMPARE(run.requests[0]["http_status"], 400);
    QVERIFY(!lb::net::contains_data_url(run.requests[0].dump()));
    QVERIFY(!lb::net::contains_data_url(run.gate.dump()));
  }

  void mediaOverTheLaneLimitFailWithoutBeingSent() {
    FakeVllmOptions o;
    o.message = [](const json& request) { return lb::test::FakeMessage{describe_media(request)}; };
    FakeVllm server(o);
    const auto run = run_gate(server, colour_set(), 500);  // the 700-byte video is over it
    QCOMPARE(run.gate["status"], "fail");
    QCOMPARE(server.chat_requests(), uint64_t{3});  // every prompt but the one with that video
    QCOMPARE(run.gate["score"], "3/4");
    bool named = false;
    for (const auto& f : run.gate["failures"])
      named = named || (f["id"] == "clip" && f["why"].get<std::string>().find(
                                                 "refused: media of 700 bytes exceed the lane's "
                                                 "max_media_bytes (500)") != std::string::npos);
    QVERIFY2(named, run.gate.dump().c_str());
  }

  void mediaRefusalsAreToldApartFromOtherErrors() {
    lb::net::StreamResult r;
    r.http_status = 400;
    r.error_message = "HTTP 400: At most 0 image(s) may be provided in one request.";
    QVERIFY(says_media_unsupported(r));
    r.error_message = "HTTP 400: image input is not supported - hint: provide the mmproj";
    QVERIFY(says_media_unsupported(r));
    r.error_message = "HTTP 400: This model's maximum context length is 8192 tokens.";
    QVERIFY(!says_media_unsupported(r));
    // A medium the lane could not fetch or read fails its prompt; the lane takes media.
    r.error_message =
        "HTTP 400: Failed to fetch media from URL: HTTP 404 error (parameter=image_url, "
        "value=http://127.0.0.1:9/a.png)";
    QVERIFY(!says_media_unsupported(r));
    r.error_message = "HTTP 400: Failed to load image: not a PNG or JPEG file";
    QVERIFY(!says_media_unsupported(r));
    r.http_status = 500;
    r.error_message = "HTTP 500: image decoder crashed";
    QVERIFY(!says_media_unsupported(r));
    lb::plan::PromptSpec p;
    p.media = {lb::test::png_media(4, 4, Qt::red, "a.png"),
               lb::test::video_media(4, 4, 2, 10, "b.mp4")};
    QCOMPARE(multimodal_kind(p), "mixed");
    p.category = "video";
    QCOMPARE(multimodal_kind(p), "video");
  }

  void planKeys() {
    const json lanes = {{{"id", "a"}, {"base_url", "sim:bf16"}, {"max_media_bytes", 1000}}};
    const json ok = {{"name", "mm"},
                     {"lanes", lanes},
                     {"experiments",
                      {{{"kind", "gates"},
                        {"checks", {"multimodal"}},
                        {"multimodal_prompts", "builtin:regression-20"}}}}};
    const auto parsed = lb::plan::parse_plan(ok.dump(), "p.json");
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    QCOMPARE(parsed.plan->lanes[0].max_media_bytes, int64_t{1000});
    const auto& g = std::get<lb::plan::GatesExperiment>(parsed.plan->experiments[0].params);
    QCOMPARE(g.multimodal_prompts, "builtin:regression-20");
    json bad = ok;
    bad["lanes"][0]["max_media_bytes"] = -1;
    bad["experiments"][0]["multimodal_prompts"] = "";
    const auto refused = lb::plan::parse_plan(bad.dump(), "p.json");
    QVERIFY(!refused.ok());
    const std::string text = refused.error_text();
    QVERIFY2(text.find("max_media_bytes") != std::string::npos, text.c_str());
    QVERIFY2(text.find("multimodal_prompts") != std::string::npos, text.c_str());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestMultimodalGate)
#include "run_multimodal_gate_test.moc"
