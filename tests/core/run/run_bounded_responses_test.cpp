// A server that never stops answering cannot hold a run: a stream that ignores max_tokens ends at
// the token cap (a multiple of max_tokens), and a stream that keeps its connection alive without
// ever answering ends at the request's total time limit, the plan's "request_timeout_s" or the
// experiment's own. Each request ends with a clear error and the run goes on to its end.
#include <QtTest>
#include <chrono>

#include "test_main.h"

#include "collecting_sink.h"
#include "core/plan/plan.h"
#include "core/run/plan_runner.h"
#include "fake_vllm.h"
#include "run_folder_reader.h"

using lb::test::FakeVllm;
using lb::test::FakeVllmOptions;
using nlohmann::json;

namespace {

json throughput_plan(const std::string& url, int64_t output_tokens) {
  return {{"name", "bounded"},
          {"lanes", json::array({{{"id", "lane"}, {"base_url", url}}})},
          {"experiments", json::array({{{"kind", "throughput"},
                                        {"concurrency", json::array({1})},
                                        {"requests", 2},
                                        {"warmups", 0},
                                        {"input_tokens", 32},
                                        {"output_tokens", output_tokens}}})}};
}

struct Outcome {
  std::vector<json> lines;
  double seconds = 0;
};

Outcome run_plan(const json& plan, const char* dir_name) {
  auto parsed = lb::plan::parse_plan(plan.dump(), "bounded.json");
  if (!parsed.ok()) qFatal("%s", parsed.error_text().c_str());
  const auto dir = lb::test::fresh_dir(dir_name);
  lb::test::CollectingSink sink;
  std::atomic<bool> stop{false};
  const auto t0 = std::chrono::steady_clock::now();
  lb::run::PlanRunner runner(*parsed.plan, {dir.string(), "test", false}, sink);
  runner.run(stop);
  Outcome out;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.lines = lb::test::read_jsonl(dir / "requests.jsonl");
  std::filesystem::remove_all(dir);
  return out;
}

// A stream of SSE comments: the connection stays busy (no idle timeout), no answer ever comes.
lb::test::ResponseScript keep_alive_forever() {
  lb::test::ResponseScript s;
  for (int i = 0; i < 600; ++i) s.pieces.push_back({": keep-alive\n\n", 50'000});  // 30 s
  return s;
}

}  // namespace

class RunBoundedResponsesTest : public QObject {
  Q_OBJECT
 private slots:
  // A server that ignores max_tokens and streams on: each request ends once it carried more
  // than 4 x max_tokens + 64 tokens, with an error that says why.
  void aStreamIgnoringMaxTokensEndsAtTheTokenCap() {
    FakeVllm server(FakeVllmOptions{.ttft_us = 1'000, .itl_us = 200, .tokens = 20'000});
    const Outcome out = run_plan(throughput_plan(server.base_url(), 16), "lb-bounded-tokens");
    QCOMPARE(out.lines.size(), size_t(2));
    for (const json& line : out.lines) {
      QVERIFY2(line["error"].is_object(), line.dump().c_str());
      QCOMPARE(line["error"]["kind"].get<std::string>(), std::string("too_large"));
      const std::string message = line["error"]["message"].get<std::string>();
      QVERIFY2(message.find("streamed more than 128 tokens") != std::string::npos, message.c_str());
      // What arrived before the cut is kept and counted, not the server's 20,000 tokens.
      int64_t tokens = 0;
      for (const json& t : line["event_tokens"]) tokens += t.is_number() ? t.get<int64_t>() : 1;
      QVERIFY2(tokens > 128 && tokens < 200, line.dump().c_str());
    }
    QVERIFY2(out.seconds < 20, std::to_string(out.seconds).c_str());  // 20,000 x 0.2 ms each
  }

  // A stream that keeps its connection alive without an answer ends at the total time limit:
  // the plan's default, or the experiment's own, which wins over the plan's.
  void aStreamThatNeverAnswersEndsAtTheRequestTimeout_data() {
    QTest::addColumn<double>("plan_s");
    QTest::addColumn<double>("experiment_s");
    QTest::newRow("plan's default") << 0.5 << 0.0;
    QTest::newRow("experiment's override") << 600.0 << 0.5;
  }
  void aStreamThatNeverAnswersEndsAtTheRequestTimeout() {
    QFETCH(double, plan_s);
    QFETCH(double, experiment_s);
    FakeVllmOptions options;
    options.script = [](const json&) { return keep_alive_forever(); };
    FakeVllm server(options);
    json plan = throughput_plan(server.base_url(), 16);
    plan["request_timeout_s"] = plan_s;
    if (experiment_s > 0) plan["experiments"][0]["request_timeout_s"] = experiment_s;
    const Outcome out = run_plan(plan, "lb-bounded-time");
    QCOMPARE(out.lines.size(), size_t(2));
    for (const json& line : out.lines) {
      QCOMPARE(line["error"]["kind"].get<std::string>(), std::string("total_timeout"));
      const std::string message = line["error"]["message"].get<std::string>();
      QVERIFY2(message.find("total timeout of 500 ms") != std::string::npos, message.c_str());
    }
    QVERIFY2(out.seconds < 10, std::to_string(out.seconds).c_str());  // not the stream's 30 s
  }

  // The limit is part of the plan as run (plan.json of the run folder), for each experiment.
  void theRequestTimeoutIsResolvedIntoEveryExperiment() {
    json plan = throughput_plan("http://127.0.0.1:1/v1", 16);
    plan["experiments"].push_back({{"kind", "gates"}, {"request_timeout_s", 30}});
    auto parsed = lb::plan::parse_plan(plan.dump(), "p.json");
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    QCOMPARE(parsed.plan->experiments[0].request_timeout_s, lb::plan::kDefaultRequestTimeoutS);
    QCOMPARE(parsed.plan->experiments[1].request_timeout_s, 30.0);
    const json resolved = lb::plan::resolved_plan_json(*parsed.plan);
    QCOMPARE(resolved["request_timeout_s"].get<double>(), lb::plan::kDefaultRequestTimeoutS);
    QCOMPARE(resolved["experiments"][1]["request_timeout_s"].get<double>(), 30.0);
    QVERIFY(lb::plan::parse_plan(resolved.dump(), "again.json").ok());
    plan["request_timeout_s"] = 0;
    auto zero = lb::plan::parse_plan(plan.dump(), "zero.json");
    QVERIFY(!zero.ok());
    QVERIFY2(zero.error_text().find("request_timeout_s") != std::string::npos,
             zero.error_text().c_str());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RunBoundedResponsesTest)
#include "run_bounded_responses_test.moc"
