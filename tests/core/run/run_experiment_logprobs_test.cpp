// "logprobs": K on a kind other than the regression: a throughput experiment on a simulator lane
// asks every request for top-K logprobs and keeps them in logprobs/<lane>.jsonl, one line per
// measured request (warm-ups excluded); the summary says so. The gates kind refuses the key by
// name.
#include <QtTest>

#include "core/logprobs/logprob_lines.h"
#include "core/plan/plan.h"
#include "sim_plan_run.h"
#include "test_main.h"

namespace {

using nlohmann::json;

json throughput_plan(json logprobs) {
  json exp = {{"kind", "throughput"}, {"concurrency", {2}},  {"requests", 6},
              {"input_tokens", 64},   {"output_tokens", 12}, {"logprobs", logprobs}};
  return {{"name", "tp-logprobs"},
          {"lanes", {{{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.001"}}}},
          {"experiments", {exp}}};
}

}  // namespace

class TestExperimentLogprobs : public QObject {
  Q_OBJECT
 private slots:
  void throughputKeepsEachRequestsLogprobs() {
    lb::test::register_sim_starter();
    auto parsed = lb::plan::parse_plan(throughput_plan(3).dump(), "plan.json");
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    QCOMPARE(parsed.plan->experiments[0].logprobs, int64_t{3});
    const auto dir = lb::test::fresh_dir("lb-experiment-logprobs");
    auto sink = std::make_shared<lb::test::CollectingSink>();
    std::atomic<bool> stop{false};
    lb::run::PlanRunner runner(*parsed.plan, {dir.string(), "test", false}, *sink);
    runner.run(stop);
    std::string error;
    const auto lines =
        lb::logprobs::parse_lines(lb::test::read_text(dir / "logprobs" / "fp8.jsonl"), error);
    QVERIFY2(error.empty(), error.c_str());
    size_t measured = 0;  // warm-ups are left out, as from every figure
    for (const auto& r : lb::test::read_jsonl(dir / "requests.jsonl"))
      measured += r.value("warmup", false) ? 0 : 1;
    QCOMPARE(lines.size(), measured);
    QVERIFY(lines.size() >= 6);
    for (const auto& l : lines) {
      QCOMPARE(l.status, std::string("ok"));
      QCOMPARE(l.top_k, 3);
      QCOMPARE(l.prompt_id, std::string("c2"));
      QVERIFY(!l.tokens.empty());
      for (const auto& t : l.tokens) {
        QCOMPARE(t.top.size(), size_t(3));
        QVERIFY(t.id >= 0);
        QVERIFY(t.logprob <= 0);
      }
    }
    const json summary = lb::test::read_json(dir / "summary.json");
    const json& lp = summary["experiments"][0]["lanes"]["fp8"]["logprobs"];
    QCOMPARE(lp["file"].get<std::string>(), std::string("logprobs/fp8.jsonl"));
    QCOMPARE(lp["status"].get<std::string>(), std::string("ok"));
    QCOMPARE(lp["requests_with_logprobs"].get<size_t>(), lines.size());
    std::filesystem::remove_all(dir);
  }

  // Issue 36, case 1: a shared plan's experiment name became part of logprobs/<lane>.<name>.jsonl
  // and, with "/.." and a NUL, wrote a file anywhere (.bashrc).
  void experimentNameCannotEscapeTheRunFolder() {
    lb::test::register_sim_starter();
    const auto dir = lb::test::fresh_dir("lb-logprobs-escape");
    const auto target = dir.parent_path() / (dir.filename().string() + "-escaped");
    std::filesystem::remove(target);
    json plan = throughput_plan(2);
    json second = plan["experiments"][0];
    second["name"] = "/../../../" + target.filename().string() + std::string(1, '\0');
    plan["experiments"].push_back(second);
    auto parsed = lb::plan::parse_plan(plan.dump(), "plan.json");
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    auto sink = std::make_shared<lb::test::CollectingSink>();
    std::atomic<bool> stop{false};
    lb::run::PlanRunner runner(*parsed.plan, {dir.string(), "test", false}, *sink);
    runner.run(stop);
    QVERIFY(!std::filesystem::exists(target));
    const json summary = lb::test::read_json(dir / "summary.json");
    const std::string file =
        summary["experiments"][1]["lanes"]["fp8"]["logprobs"]["file"].get<std::string>();
    QVERIFY2(file.rfind("logprobs/fp8.", 0) == 0, file.c_str());
    QVERIFY2(file.find('/', 9) == std::string::npos && file.find('\0') == std::string::npos,
             file.c_str());
    QVERIFY(std::filesystem::is_regular_file(dir / file));
    std::filesystem::remove_all(dir);
  }

  void gatesRefuseLogprobs() {
    json plan = throughput_plan(3);
    plan["experiments"][0] = {{"kind", "gates"}, {"checks", {"json"}}, {"logprobs", 3}};
    const auto parsed = lb::plan::parse_plan(plan.dump(), "plan.json");
    QVERIFY(!parsed.ok());
    QVERIFY(parsed.error_text().find("logprobs") != std::string::npos);
    plan = throughput_plan(21);
    QVERIFY(!lb::plan::parse_plan(plan.dump(), "plan.json").ok());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestExperimentLogprobs)
#include "run_experiment_logprobs_test.moc"
