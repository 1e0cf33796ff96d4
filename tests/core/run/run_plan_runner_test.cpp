// PlanRunner end to end, in process, against vLLM look-alikes on loopback: the run folder is
// complete and its numbers match the servers' scripted timing; errors are recorded per request
// while the run goes on; keys never reach disk; bad lanes stop the run before measuring.
#include <QtTest>

#include <cstdlib>
#include <set>
#include "test_main.h"

#include "collecting_sink.h"
#include "core/plan/plan.h"
#include "core/run/launch/sim_lane_registry.h"
#include "core/run/plan_runner.h"
#include "fake_vllm.h"
#include "run_folder_reader.h"
#include "timing_slack.h"

using namespace lb::run;
using lb::test::FakeVllm;
using lb::test::FakeVllmOptions;
namespace fs = std::filesystem;

namespace {

// Extra room on upper timing bounds when instrumented (timing_slack.h).
using lb::test::slack_ms;

lb::plan::Plan parse(const nlohmann::json& j) {
  auto r = lb::plan::parse_plan(j.dump(), "test-plan.json");
  if (!r.ok()) qFatal("plan rejected: %s", r.error_text().c_str());
  return *r.plan;
}

nlohmann::json two_lane_plan(const FakeVllm& a, const FakeVllm& b) {
  return {{"name", "end to end"},
          {"lanes",
           {{{"id", "base"},
             {"base_url", a.base_url()},
             {"api_key_env", "LB_TEST_RUN_KEY"},
             {"notes", {{"weights", "bf16"}}}},
            {{"id", "cand"}, {"base_url", b.base_url()}, {"model", "auto"}}}},
          {"experiments",
           {{{"kind", "throughput"},
             {"concurrency", {1, 3}},
             {"requests", 6},
             {"warmups", 1},
             {"input_tokens", 64},
             {"output_tokens", 8}},
            {{"kind", "regression"}, {"prompts", "builtin:regression-20"}, {"max_tokens", 16}},
            {{"kind", "context_sweep"}, {"prompt_tokens", {1024}}}}}};
}

}  // namespace

class TestPlanRunner : public QObject {
  Q_OBJECT
 private slots:
  void runLeavesACompleteFolderWithTheServersTiming() {
    FakeVllm a(FakeVllmOptions{.ttft_us = 20'000, .itl_us = 2'000, .tokens = 8});
    FakeVllm b(FakeVllmOptions{.ttft_us = 40'000, .itl_us = 4'000, .tokens = 8});
    const auto dir = lb::test::fresh_dir("lb-run-e2e");
    lb::test::CollectingSink sink;
    sink.summary_path = dir / "summary.json";
    std::atomic<bool> stop{false};
    RunOptions options{dir.string(), "9.9.9"};
    options.environment = lb::plan::Environment()
                              .with("LB_TEST_RUN_KEY", "sk-test-secret-4242")
                              .allowing_key("LB_TEST_RUN_KEY");
    PlanRunner runner(parse(two_lane_plan(a, b)), options, sink);
    const auto result = runner.run(stop);
    QCOMPARE(result.exit_code, 0);
    QVERIFY(result.errors.empty());
    QVERIFY(!sink.has_message_containing("is not implemented yet"));

    for (const char* f :
         {"plan.json", "environment.json", "requests.jsonl", "summary.json",
          "texts/base.texts.json", "texts/cand.texts.json", "metrics/base.before.prom",
          "metrics/base.after.prom", "metrics/cand.before.prom", "metrics/cand.after.prom"})
      QVERIFY2(fs::exists(dir / f), f);

    // Every finished request is a line; warm-ups are marked.
    const auto lines = lb::test::read_jsonl(dir / "requests.jsonl");
    QCOMPARE(lines.size(),
             size_t(2 * (7 + 7) + 2 * 20 + 2));  // + one context-sweep request per lane
    QCOMPARE(result.requests_written, int64_t(lines.size()));
    int warmups = 0;
    for (const auto& l : lines) warmups += l["warmup"].get<bool>() ? 1 : 0;
    QCOMPARE(warmups, 4);

    const auto summary = lb::test::read_json(dir / "summary.json");
    const auto& tp = summary["experiments"][0];
    QCOMPARE(tp["status"].get<std::string>(), std::string("done"));
    const auto& c1 = tp["lanes"]["base"]["phases"]["c1"];
    QCOMPARE(c1["completed"].get<int>(), 6);
    QCOMPARE(c1["warmups_excluded"].get<int>(), 1);
    QCOMPARE(c1["total_output_tokens"].get<int>(), 48);
    // Never below the scripted delays; TTFT in the scripts' order (20 ms apart). Above them by
    // what the machine adds, which load makes several ms and not the same for both lanes (at
    // load 6, ITL 2.2 and 8.0 ms for scripts of 2 and 4 ms: more than the scripts' 2 ms
    // difference, so ITL has no order check), so the upper bounds only catch a wrong interval or
    // unit (a TTFT from the phase's start, an ITL in µs): 5 times the script.
    const double ttft_a = c1["median_ttft_ms"].get<double>();
    const double ttft_b = tp["lanes"]["cand"]["phases"]["c3"]["median_ttft_ms"].get<double>();
    const double itl_a = c1["median_itl_ms"].get<double>();
    const double itl_b = tp["lanes"]["cand"]["phases"]["c1"]["median_itl_ms"].get<double>();
    const QString timings =
        QString("TTFT %1 / %2 ms, ITL %3 / %4 ms").arg(ttft_a).arg(ttft_b).arg(itl_a).arg(itl_b);
    QVERIFY2(ttft_a >= 20.0 && ttft_b >= 40.0 && itl_a >= 1.9 && itl_b >= 3.9, qPrintable(timings));
    QVERIFY2(ttft_b > ttft_a + 10.0, qPrintable(timings));
    QVERIFY2(ttft_a < 100.0 + slack_ms && ttft_b < 200.0 + slack_ms && itl_a < 10.0 + slack_ms &&
                 itl_b < 20.0 + slack_ms,
             qPrintable(timings));
    QCOMPARE(tp["lanes"]["cand"]["phase_order"], nlohmann::json({"c1", "c3"}));
    // Each closed-loop phase says its steady window: three in flight, inside the phase.
    const auto& steady = tp["lanes"]["base"]["phases"]["c3"]["steady_state"];
    QCOMPARE(steady["found"], true);
    QCOMPARE(steady["threshold"].get<int>(), 3);
    QVERIFY(steady["window_s"][0].get<double>() >= 0);
    QVERIFY(steady["window_s"][1].get<double>() > steady["window_s"][0].get<double>());
    QVERIFY(steady["window_s"][1].get<double>() <= steady["phase_duration"].get<double>());
    QVERIFY(steady["requests_started"].get<int>() >= 1);
    QVERIFY(steady["requests_started"].get<int>() <= 6);
    QCOMPARE(steady["short"], true);  // well under 10 s
    // Server counters: the fake counts 100 queried / 25 hit prefix tokens per chat request.
    const auto& delta = tp["lanes"]["base"]["server_counters_delta"];
    QCOMPARE(delta["prefix_cache_queries"].get<double>(), 1400.0);
    QCOMPARE(delta["prefix_cache_hit_rate"].get<double>(), 0.25);
    QCOMPARE(summary["experiments"][2]["status"].get<std::string>(), std::string("done"));
    QCOMPARE(summary["experiments"][2]["lanes"]["base"]["context_sweep"][0]["status"], "measured");

    // Each experiment was announced once over, in plan order, as summary.json holds it then and
    // at the end, the key redacted like the file's.
    QCOMPARE(sink.sections.size(), size_t(3));
    QCOMPARE(sink.sections_told_before_written, 0);
    for (size_t i = 0; i < 3; ++i) {
      QCOMPARE(sink.sections[i].first, i);
      QCOMPARE(lb::record::to_json(sink.sections[i].second), summary["experiments"][i]);
    }
    QVERIFY(sink.sections[1].second.is(lb::record::ExperimentKind::Regression));
    QCOMPARE(sink.sections[0].second.lanes.size(), size_t(2));

    // Regression texts in prompt order.
    const auto texts = lb::test::read_json(dir / "texts/cand.texts.json");
    QCOMPARE(texts.size(), size_t(20));
    QVERIFY(texts[0].get<std::string>().rfind("echo:", 0) == 0);
    QVERIFY(texts[0] != texts[1]);

    const auto env = lb::test::read_json(dir / "environment.json");
    QCOMPARE(env["lanes"]["base"]["probe"]["server_kind"].get<std::string>(), std::string("vllm"));
    QCOMPARE(env["lanes"]["cand"]["model"].get<std::string>(),
             std::string("test-org/test-model-8b"));
    QCOMPARE(env["lanes"]["base"]["cache_config"]["kv_capacity_tokens"].get<int64_t>(),
             int64_t(4096 * 16));
    QCOMPARE(env["lanes"]["base"]["notes"]["weights"].get<std::string>(), std::string("bf16"));
    QVERIFY(env.contains("os") && env.contains("client"));

    // Every throughput request had a prompt of its own (no level finds the previous level's
    // prompts in a prefix cache), and both lanes got the same workload.
    auto throughput_bodies = [](FakeVllm& server) {
      std::multiset<std::string> bodies;
      for (const auto& s : server.server().served())
        if (s.target == "/v1/chat/completions" && s.body.find("ignore_eos") != std::string::npos)
          bodies.insert(s.body);
      return bodies;
    };
    const auto bodies_a = throughput_bodies(a);
    QCOMPARE(bodies_a.size(), size_t(14));
    QCOMPARE(std::set<std::string>(bodies_a.begin(), bodies_a.end()).size(), size_t(14));
    QVERIFY(bodies_a == throughput_bodies(b));

    // The key went to the server and nowhere else.
    const auto served = a.server().served();
    QVERIFY(!served.empty());
    QCOMPARE(served.back().header("authorization"), std::string("Bearer sk-test-secret-4242"));
    for (const auto& entry : fs::recursive_directory_iterator(dir))
      if (entry.is_regular_file())
        QVERIFY2(lb::test::read_text(entry.path()).find("sk-test-secret") == std::string::npos,
                 qPrintable(QString::fromStdString(entry.path().string())));
    fs::remove_all(dir);
  }

  void failingServerIsRecordedPerRequestAndTheRunGoesOn() {
    FakeVllmOptions o{.ttft_us = 1'000, .itl_us = 500, .tokens = 4};
    o.status_for = [](uint64_t n) { return n % 2 == 0 ? 500 : (n % 3 == 0 ? 429 : 200); };
    FakeVllm server(o);
    const auto dir = lb::test::fresh_dir("lb-run-errors");
    nlohmann::json plan = {{"name", "t"},
                           {"lanes", {{{"id", "flaky"}, {"base_url", server.base_url()}}}},
                           {"experiments",
                            {{{"kind", "throughput"},
                              {"concurrency", {2}},
                              {"requests", 12},
                              {"warmups", 0},
                              {"input_tokens", 32},
                              {"output_tokens", 4}}}}};
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    const auto result = PlanRunner(parse(plan), {dir.string()}, sink).run(stop);
    QCOMPARE(result.exit_code, 0);
    const auto lines = lb::test::read_jsonl(dir / "requests.jsonl");
    QCOMPARE(lines.size(), size_t(12));
    int http500 = 0, http429 = 0;
    for (const auto& l : lines) {
      if (l["error"].is_null()) continue;
      const auto kind = l["error"]["kind"].get<std::string>();
      http500 += l["http_status"] == 500 ? 1 : 0;
      http429 += l["http_status"] == 429 ? 1 : 0;
      QVERIFY(!l["ok"].get<bool>());
      QVERIFY(!kind.empty());
    }
    QCOMPARE(http500, 6);
    QCOMPARE(http429, 2);  // 3 and 9 (6 and 12 are 500s)
    const auto summary = lb::test::read_json(dir / "summary.json");
    const auto& c2 = summary["experiments"][0]["lanes"]["flaky"]["phases"]["c2"];
    QCOMPARE(c2["completed"].get<int>(), 4);
    QCOMPARE(c2["failed"].get<int>(), 8);
    fs::remove_all(dir);
  }

  void flippedFactFailsTheRunAndStartsTheReview() {
    const auto dir = lb::test::fresh_dir("lb-run-regression");
    fs::create_directories(dir);
    const auto set_path = dir / "set.jsonl";
    std::ofstream(set_path)
        << R"({"id": "capital", "prompt": "Capital of France?", "checks": [{"type": "must_contain", "value": "Paris"}]})"
        << "\n"
        << R"({"id": "same", "prompt": "Say hi"})"
        << "\n"
        << R"({"id": "drift", "prompt": "Describe the sea"})"
        << "\n";
    auto answers = [](bool candidate) {
      return [candidate](const std::string& prompt) -> std::string {
        if (prompt.rfind("Capital", 0) == 0) return candidate ? "Lyon" : "Paris";
        if (prompt.rfind("Say", 0) == 0) return "hi";
        return candidate ? "Waves of grey under a low and heavy sky" : "Blue, wide and calm";
      };
    };
    FakeVllmOptions base_opts{.ttft_us = 1'000, .itl_us = 200, .tokens = 3};
    base_opts.answer = answers(false);
    FakeVllmOptions cand_opts = base_opts;
    cand_opts.answer = answers(true);
    FakeVllm base(base_opts), cand(cand_opts);
    nlohmann::json plan = {
        {"name", "t"},
        {"lanes",
         {{{"id", "base"}, {"base_url", base.base_url()}},
          {{"id", "cand"}, {"base_url", cand.base_url()}}}},
        {"experiments", {{{"kind", "regression"}, {"prompts", set_path.string()}}}}};
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    const auto out = dir / "out";
    const auto result = PlanRunner(parse(plan), {out.string()}, sink).run(stop);
    QCOMPARE(result.exit_code, kExitFailed);
    QVERIFY(sink.has_message_containing("flips 1 fact"));
    const auto texts = lb::test::read_json(out / "texts/cand.texts.json");
    QCOMPARE(texts, nlohmann::json({"Lyon t1 t2", "hi t1 t2",
                                    "Waves of grey under a low and heavy sky t1 t2"}));
    const auto summary = lb::test::read_json(out / "summary.json");
    const auto& cmp = summary["experiments"][0]["comparisons"][0];
    QCOMPARE(cmp["identical"].get<int>(), 1);
    QCOMPARE(cmp["divergent"].get<int>(), 2);
    QCOMPARE(cmp["flipped_facts"][0]["id"].get<std::string>(), std::string("capital"));
    QCOMPARE(summary["run"]["blockers"].size(), size_t(1));
    const auto review = lb::test::read_json(out / "review.json");
    QCOMPARE(review["pairs"].size(), size_t(3));
    fs::remove_all(dir);
  }

  // Requests that finish without a single output token have no TTFT: the context sweep's and
  // the prefix cache's medians then say null, never -1 (which the medians held before).
  void missingFiguresAreNullNeverMinusOne() {
    FakeVllm server(FakeVllmOptions{.ttft_us = 1'000, .itl_us = 200, .tokens = 0});
    const auto dir = lb::test::fresh_dir("lb-run-missing");
    const nlohmann::json plan = {
        {"name", "missing"},
        {"lanes", {{{"id", "empty"}, {"base_url", server.base_url()}}}},
        {"experiments",
         {{{"kind", "context_sweep"}, {"prompt_tokens", {1024}}, {"output_tokens", 8}},
          {{"kind", "prefix_cache"},
           {"shared_prefix_tokens", 1024},
           {"burst", 2},
           {"output_tokens", 4}}}}};
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    const auto result = PlanRunner(parse(plan), {dir.string()}, sink).run(stop);
    QVERIFY2(result.exit_code == 0 || result.exit_code == 1,
             result.errors.empty() ? "" : result.errors.front().c_str());
    const auto summary = lb::test::read_json(dir / "summary.json");
    bool saw_sweep = false, saw_prefix = false;
    for (const auto& e : summary["experiments"]) {
      const auto& lane = e["lanes"]["empty"];
      if (e["kind"] == "context_sweep") {
        saw_sweep = true;
        const auto& row = lane["context_sweep"][0];
        QCOMPARE(row["status"], "measured");
        QVERIFY2(row["completed"].get<int64_t>() >= 1, row.dump().c_str());
        for (const char* key : {"ttft_ms", "e2el_ms", "decode_tok_s"})
          QVERIFY2(row[key].is_null(), (std::string(key) + ": " + row.dump()).c_str());
      }
      if (e["kind"] == "prefix_cache") {
        saw_prefix = true;
        const auto& passes = lane["prefix_cache"]["passes"];
        QVERIFY2(passes.is_object() && passes.contains("cold"), lane.dump().c_str());
        for (const auto& [name, pass] : passes.items())
          QVERIFY2(pass["median_ttft_ms"].is_null(), (name + ": " + pass.dump()).c_str());
      }
    }
    QVERIFY(saw_sweep && saw_prefix);
    fs::remove_all(dir);
  }

  // A server that quotes the refused key in its error: requests.jsonl keeps the error, not the key.
  void serverErrorTextIsWrittenWithoutTheKey() {
    const std::string key = "sk-quoted-back-" + std::to_string(::getpid()) + "-c0ffee";
    FakeVllmOptions o{.ttft_us = 1'000, .itl_us = 200, .tokens = 2};
    o.status_for = [](uint64_t n) { return n % 2 == 0 ? 401 : 200; };
    FakeVllm server(o);
    const auto dir = lb::test::fresh_dir("lb-run-quoted-key");
    const nlohmann::json plan = {
        {"name", "quoted"},
        {"lanes",
         {{{"id", "a"}, {"base_url", server.base_url()}, {"api_key_env", "LB_TEST_QUOTED_KEY"}}}},
        {"experiments",
         {{{"kind", "throughput"},
           {"concurrency", {1}},
           {"requests", 4},
           {"warmups", 0},
           {"input_tokens", 16},
           {"output_tokens", 2}}}}};
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    RunOptions options{dir.string()};
    options.environment =
        lb::plan::Environment().with("LB_TEST_QUOTED_KEY", key).allowing_key("LB_TEST_QUOTED_KEY");
    PlanRunner(parse(plan), options, sink).run(stop);
    const std::string lines = lb::test::read_text(dir / "requests.jsonl");
    QVERIFY2(lines.find("Incorrect API key provided: [redacted]") != std::string::npos,
             lines.substr(0, 2000).c_str());
    QVERIFY2(lines.find(key) == std::string::npos, "the key was written to requests.jsonl");
    fs::remove_all(dir);
  }

  void unusableLanesStopTheRunBeforeMeasuring() {
    FakeVllm server;
    const auto dir = lb::test::fresh_dir("lb-run-badlanes");
    nlohmann::json plan = {
        {"name", "t"},
        {"lanes",
         {{{"id", "nokey"},
           {"base_url", server.base_url()},
           {"api_key_env", "LB_TEST_MISSING_KEY"}},
          {{"id", "down"}, {"base_url", "http://127.0.0.1:9/v1"}},
          {{"id", "simlane"}, {"base_url", "sim:fp8"}}}},
        {"experiments", {{{"kind", "throughput"}, {"concurrency", {1}}, {"requests", 2}}}}};
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    set_sim_lane_starter(nullptr);
    RunOptions options{dir.string()};
    // LB_TEST_MISSING_KEY is allowed but not set
    options.environment = lb::plan::Environment().allowing_key("LB_TEST_MISSING_KEY");
    const auto result = PlanRunner(parse(plan), options, sink).run(stop);
    QCOMPARE(result.exit_code, kExitInput);
    QCOMPARE(result.errors.size(), size_t(3));
    QVERIFY(result.errors[0].find("LB_TEST_MISSING_KEY") != std::string::npos);
    QVERIFY(result.errors[1].find("lane down") != std::string::npos);
    QVERIFY(result.errors[2].find("not available in this build") != std::string::npos);
    QCOMPARE(server.chat_requests(), uint64_t(0));
    // A used folder is refused rather than mixed with a new run.
    std::string why;
    QVERIFY(!run_folder_usable(dir.string(), &why));
    fs::remove_all(dir);
  }

  void aServerThatDoesNotAnswerIsALaneErrorNotAnInputOne() {
    // A scheduler retries exit 3 (the server may still be starting) and gives up on exit 2.
    const auto dir = lb::test::fresh_dir("lb-run-downlane");
    nlohmann::json plan = {
        {"name", "t"},
        {"lanes", {{{"id", "down"}, {"base_url", "http://127.0.0.1:9/v1"}}}},
        {"experiments", {{{"kind", "throughput"}, {"concurrency", {1}}, {"requests", 2}}}}};
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    const auto result = PlanRunner(parse(plan), RunOptions{dir.string()}, sink).run(stop);
    QCOMPARE(result.exit_code, kExitLanes);
    QVERIFY(result.errors.at(0).find("lane down") != std::string::npos);
    fs::remove_all(dir);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestPlanRunner)
#include "run_plan_runner_test.moc"
