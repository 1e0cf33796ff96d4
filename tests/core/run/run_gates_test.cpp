// Functional gates: every check passes 3/3 on a simulator lane; a server without the Responses
// API reports "unsupported" (not a failure, exit 0); a server whose answers break a check fails
// the gate and the run exits 1. Also the JSON-schema validator the gates rely on.
#include <QtTest>

#include "test_main.h"

#include "core/run/experiments/json_schema_check.h"
#include "fake_vllm.h"
#include "sim_plan_run.h"

using lb::test::FakeVllm;
using lb::test::FakeVllmOptions;

namespace {

nlohmann::json gates_plan(const std::string& base_url, const nlohmann::json& checks) {
  nlohmann::json gates = {{"kind", "gates"}, {"repeat", 3}};
  if (!checks.is_null()) gates["checks"] = checks;
  return {{"name", "gates"},
          {"lanes", {{{"id", "lane"}, {"base_url", base_url}}}},
          {"experiments", {gates}}};
}

}  // namespace

class TestGatesExperiment : public QObject {
  Q_OBJECT
 private slots:
  void everyGatePassesOnASimLane() {
    const auto run =
        lb::test::run_sim_plan(gates_plan("sim:fp8?time_scale=0.01", nullptr), "lb-exp-gates-sim");
    const auto gates = run.experiment("gates")["lanes"]["lane"]["gates"];
    for (const auto& check : lb::plan::all_gate_checks()) {
      qInfo("%s: %s %s", check.c_str(), gates[check]["status"].get<std::string>().c_str(),
            gates[check]["score"].get<std::string>().c_str());
      QVERIFY2(gates[check]["status"] == "pass", gates[check].dump().c_str());
      QCOMPARE(gates[check]["score"], "3/3");
      // Each attempt's requests are in requests.jsonl under the check's name.
      const auto lines = std::count_if(run.requests.begin(), run.requests.end(), [&](auto& r) {
        return r["experiment"] == "gates" && r["phase"] == check && r["lane"] == "lane";
      });
      QVERIFY2(lines >= 3, qPrintable(QString("%1: %2 lines").arg(check.c_str()).arg(lines)));
    }
    QCOMPARE(run.result.exit_code, 0);
  }

  void missingFeatureIsUnsupportedNotFailed() {
    FakeVllm server(FakeVllmOptions{});
    const auto run = lb::test::run_sim_plan(gates_plan(server.base_url(), {"responses"}),
                                            "lb-exp-gates-unsupported");
    const auto g = run.experiment("gates")["lanes"]["lane"]["gates"]["responses"];
    QCOMPARE(g["status"], "unsupported");
    QCOMPARE(run.result.exit_code, 0);
  }

  void brokenAnswerFailsTheGateAndTheRun() {
    FakeVllm server(FakeVllmOptions{});  // echoes the prompt: not JSON
    const auto run =
        lb::test::run_sim_plan(gates_plan(server.base_url(), {"json"}), "lb-exp-gates-fail");
    const auto g = run.experiment("gates")["lanes"]["lane"]["gates"]["json"];
    QCOMPARE(g["status"], "fail");
    QCOMPARE(g["score"], "0/3");
    QCOMPARE(run.result.exit_code, 1);
  }

  void schemaValidatorNamesTheViolation() {
    const nlohmann::json schema = {
        {"type", "object"},
        {"required", {"a"}},
        {"properties",
         {{"a", {{"type", "integer"}}}, {"b", {{"type", "string"}, {"enum", {"x", "y"}}}}}}};
    QCOMPARE(lb::run::json_schema_violation({{"a", 1}, {"b", "x"}}, schema), std::string());
    QCOMPARE(lb::run::json_schema_violation({{"b", "x"}}, schema),
             std::string("$: missing required a"));
    QCOMPARE(lb::run::json_schema_violation({{"a", 1.5}}, schema),
             std::string("$.a: expected integer"));
    QVERIFY(!lb::run::json_schema_violation({{"a", 1}, {"b", "z"}}, schema).empty());
    QCOMPARE(lb::run::parse_answer_json("```json\n{\"a\": 2}\n```")["a"], 2);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestGatesExperiment)
#include "run_gates_test.moc"
