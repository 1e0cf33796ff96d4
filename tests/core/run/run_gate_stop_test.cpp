// Stop during the functional gates: the attempt in flight is cut short by the client ("HTTP 0:
// stopped"), which says nothing about the lane. The gate is "stopped", not failed, not a blocker,
// and the gate table shows it so.
#include <QtTest>
#include <atomic>
#include <chrono>
#include <thread>

#include "test_main.h"

#include "collecting_sink.h"
#include "core/plan/plan.h"
#include "core/record/run_summary.h"
#include "core/report/gate_table.h"
#include "core/run/plan_runner.h"
#include "fake_vllm.h"
#include "run_folder_reader.h"

using lb::test::FakeVllm;
using lb::test::FakeVllmOptions;
using nlohmann::json;

// The summary as the gate table reads it: through the record.
static lb::record::RunSummary stopped_record(const nlohmann::json& summary) {
  lb::record::FileFields fields("summary.json");
  return lb::record::read_run_summary(summary, fields);
}

class RunGateStopTest : public QObject {
  Q_OBJECT
 private slots:
  void a_gate_cut_short_by_stop_is_stopped_not_failed() {
    FakeVllmOptions options;
    options.ttft_us = 5'000'000;  // every answer is still on its way when Stop comes
    FakeVllm server(options);
    const json plan = {
        {"name", "gates stopped"},
        {"lanes", json::array({{{"id", "lane"}, {"base_url", server.base_url()}}})},
        {"experiments",
         json::array(
             {{{"kind", "gates"}, {"checks", json::array({"streaming"})}, {"repeat", 3}}})}};
    auto parsed = lb::plan::parse_plan(plan.dump(), "stop-plan.json");
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    const auto dir = lb::test::fresh_dir("lb-gate-stop");
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    std::thread stopper([&stop, &server] {
      // Stop once the first gate request reached the server.
      for (int i = 0; i < 500 && server.chat_requests() == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      stop = true;
    });
    lb::run::PlanRunner runner(*parsed.plan, {dir.string(), "test", false}, sink);
    const lb::run::RunResult result = runner.run(stop);
    stopper.join();
    QVERIFY(server.chat_requests() >= 1);

    const json summary = lb::test::read_json(dir / "summary.json");
    json gate;
    for (const auto& e : summary["experiments"])
      if (e["kind"] == "gates") gate = e["lanes"]["lane"]["gates"]["streaming"];
    QVERIFY2(gate["status"] == "stopped", gate.dump().c_str());
    QVERIFY2(!gate.contains("failures"), gate.dump().c_str());
    QVERIFY(gate["why"].get<std::string>().find("stopped by the user") != std::string::npos);
    QVERIFY(!sink.has_message_containing("gate streaming failed"));
    QVERIFY(result.exit_code != lb::run::kExitFailed);

    const lb::report::GateTable table =
        lb::report::build_gate_table(stopped_record(summary), {"lane"});
    QCOMPARE(table.rows.size(), size_t(1));
    const lb::report::GateCell& cell = table.rows[0].cells[0];
    QCOMPARE(cell.status, lb::report::GateStatus::Stopped);
    QVERIFY2(lb::report::cell_text(cell).rfind("stopped", 0) == 0,
             lb::report::cell_text(cell).c_str());
    QCOMPARE(table.count(lb::report::GateStatus::Fail), 0);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RunGateStopTest)
#include "run_gate_stop_test.moc"
