// The multimodal gate over each API a lane speaks, end to end on in-process simulator lanes over
// HTTP: a lane serving as Ollama (api=ollama) is probed as Ollama and scored over /api/chat on
// builtin:multimodal-30's prompts without video (10/10 image, 5/5 mixed of two images), the
// prompts with a video "unsupported by the API" and not sent; an OpenAI-compatible lane asked for
// "both" APIs is scored over chat (30/30) and over /v1/responses with input_image (15/15); with the
// default "chat" the Responses score comes only after the lane passed the responses check; a
// text-only lane is "multimodal unsupported" on every API. requests.jsonl records each request's
// media (bytes, pixels, SHA-256) and no file of the run folder holds a data: URL or an image's
// base64.
#include <QtTest>

#include <filesystem>

#include "test_main.h"

#include "core/net/data_url.h"
#include "core/run/experiments/multimodal_gate.h"
#include "sim_plan_run.h"

// The run's results, read before its folder is removed (a member of the test class).
struct MmaRun {
  lb::run::RunResult result;
  nlohmann::json summary, environment;
  std::vector<nlohmann::json> requests;
  std::vector<std::string> leaks;  // files holding a data: URL or a PNG's base64
};

namespace {

using nlohmann::json;

json mma_plan() {
  return {{"name", "multimodal apis"},
          {"lanes",
           {{{"id", "ollama"}, {"base_url", "sim:bf16?time_scale=0.01&api=ollama"}},
            {{"id", "ollama-text"}, {"base_url", "sim:fp8?time_scale=0.01&api=ollama"}},
            {{"id", "vllm"}, {"base_url", "sim:bf16?time_scale=0.01"}},
            {{"id", "vllm-text"}, {"base_url", "sim:fp8?time_scale=0.01"}}}},
          {"experiments",
           {{{"kind", "gates"}, {"checks", {"multimodal"}}, {"multimodal_api", "both"}},
            {{"kind", "gates"},
             {"name", "after-responses"},
             {"lanes", {"vllm"}},
             {"checks", {"multimodal", "responses"}},
             {"repeat", 1}}}}};
}

MmaRun mma_run(const json& plan) {
  lb::test::register_sim_starter();
  auto parsed = lb::plan::parse_plan(plan.dump(), "test-plan.json");
  if (!parsed.ok()) qFatal("plan rejected: %s", parsed.error_text().c_str());
  const auto dir = lb::test::fresh_dir("lb-multimodal-apis");
  lb::test::CollectingSink sink;
  std::atomic<bool> stop{false};
  lb::run::PlanRunner runner(*parsed.plan, {dir.string(), "test", false}, sink);
  MmaRun run;
  run.result = runner.run(stop);
  run.summary = lb::test::read_json(dir / "summary.json");
  run.environment = lb::test::read_json(dir / "environment.json");
  run.requests = lb::test::read_jsonl(dir / "requests.jsonl");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string text = lb::test::read_text(entry.path());
    // "iVBORw0KGgo" is the base64 of a PNG's signature: Ollama's `images` carry no data: prefix.
    if (lb::net::contains_data_url(text) || text.find("iVBORw0KGgo") != std::string::npos)
      run.leaks.push_back(entry.path().string());
  }
  std::filesystem::remove_all(dir);
  return run;
}

json mma_gates_of(const json& summary, const std::string& experiment) {
  for (const auto& e : summary["experiments"])
    if (e.value("name", "") == experiment) return e["lanes"];
  return nullptr;
}

int64_t mma_count(const std::vector<json>& requests, const std::string& experiment,
                  const std::string& lane, const std::string& phase) {
  int64_t n = 0;
  for (const auto& r : requests)
    if (r["experiment"] == experiment && r["lane"] == lane && r["phase"] == phase) ++n;
  return n;
}

}  // namespace

class TestMultimodalApisSim : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { run_ = mma_run(mma_plan()); }

  void anOllamaLaneIsScoredOverApiChatWithVideosUnsupportedByTheApi() {
    QCOMPARE(run_.environment["lanes"]["ollama"]["probe"]["server_kind"], "ollama");
    const json g = mma_gates_of(run_.summary, "gates")["ollama"]["gates"];
    const json& mm = g["multimodal"];
    QVERIFY2(mm["status"] == "pass", mm.dump(1).c_str());
    QCOMPARE(mm["api"], "ollama");
    QCOMPARE(mm["route"], "/api/chat");
    // The ten image prompts and the five mixed ones of two images went; the ten videos and
    // the five mixed ones with a video are unsupported by the API.
    QCOMPARE(mm["score"], "15/15");
    QCOMPARE(mm["kinds"]["image"]["score"], "10/10");
    QCOMPARE(mm["kinds"]["mixed"]["score"], "5/5");
    QCOMPARE(mm["kinds"]["mixed"]["unsupported_by_api"], 5);
    QCOMPARE(mm["kinds"]["video"]["score"], lb::run::kUnsupportedByApi);
    QCOMPARE(mm["kinds"]["video"]["unsupported_by_api"], 10);
    QCOMPARE(mm["not_sent"], 15);
    QVERIFY(!g.contains("multimodal (responses)"));  // Ollama lanes speak their own API
    QCOMPARE(mma_count(run_.requests, "gates", "ollama", "multimodal"), int64_t{15});
    for (const auto& r : run_.requests) {
      if (r["lane"] != "ollama") continue;
      QVERIFY2(r["ok"] == true, r.dump().c_str());
      QVERIFY(r["media"]["images"].get<int64_t>() >= 1);
      QVERIFY(r["media"].value("videos", 0) == 0);
      QVERIFY(r["media"]["bytes"].get<int64_t>() > 0);
      QVERIFY(r["media"]["pixels"].get<int64_t>() > 0);
      QCOMPARE(r["media"]["items"][0]["sha256"].get<std::string>().size(), size_t{64});
    }
  }

  void anOpenAiLaneAskedForBothIsScoredOverChatAndResponses() {
    const json g = mma_gates_of(run_.summary, "gates")["vllm"]["gates"];
    QVERIFY2(g["multimodal"]["status"] == "pass", g["multimodal"].dump(1).c_str());
    QCOMPARE(g["multimodal"]["api"], "chat");
    QCOMPARE(g["multimodal"]["score"], "30/30");
    const json& responses = g["multimodal (responses)"];
    QVERIFY2(responses["status"] == "pass", responses.dump(1).c_str());
    QCOMPARE(responses["api"], "responses");
    QCOMPARE(responses["route"], "/v1/responses");
    QCOMPARE(responses["score"], "15/15");
    QCOMPARE(responses["kinds"]["image"]["score"], "10/10");
    QCOMPARE(responses["kinds"]["video"]["score"], lb::run::kUnsupportedByApi);
    QCOMPARE(mma_count(run_.requests, "gates", "vllm", "multimodal (responses)"), int64_t{15});
    for (const auto& r : run_.requests)
      if (r["lane"] == "vllm" && r["phase"] == "multimodal (responses)")
        QVERIFY(r["media"]["bytes"].get<int64_t>() > 0 && r["ok"] == true);
  }

  void byDefaultResponsesIsScoredOnceTheLanePassedTheResponsesCheck() {
    const json g = mma_gates_of(run_.summary, "after-responses")["vllm"]["gates"];
    QCOMPARE(g["responses"]["status"], "pass");
    QCOMPARE(g["multimodal"]["score"], "30/30");
    QCOMPARE(g["multimodal (responses)"]["score"], "15/15");
  }

  void aTextOnlyLaneIsMultimodalUnsupportedOnEveryApi() {
    const json lanes = mma_gates_of(run_.summary, "gates");
    for (const auto& [lane, key] : std::vector<std::pair<std::string, std::string>>{
             {"ollama-text", "multimodal"},
             {"vllm-text", "multimodal"},
             {"vllm-text", "multimodal (responses)"}}) {
      const json& gate = lanes[lane]["gates"][key];
      QVERIFY2(gate["status"] == "unsupported", (lane + " " + key + gate.dump()).c_str());
      QCOMPARE(gate["unsupported"], lb::run::kMultimodalUnsupported);
      QCOMPARE(mma_count(run_.requests, "gates", lane, key), int64_t{1});  // asked once
    }
    const std::string ollama_why = lanes["ollama-text"]["gates"]["multimodal"]["why"];
    QVERIFY2(ollama_why.find("does not support vision") != std::string::npos, ollama_why.c_str());
    QCOMPARE(run_.result.exit_code, 0);  // unsupported is a result, not a failure
  }

  void noFileOfTheRunHoldsMediaPayloads() {
    QVERIFY2(run_.leaks.empty(), run_.leaks.empty() ? "" : run_.leaks.front().c_str());
  }

 private:
  MmaRun run_;
};

LANEBENCH_TEST_GUILESS_MAIN(TestMultimodalApisSim)
#include "run_multimodal_apis_sim_test.moc"
