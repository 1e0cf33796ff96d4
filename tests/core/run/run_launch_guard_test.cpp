// PlanRunner starts no program from a plan unless its caller allowed launching: a front end that
// has not asked the user gets an error and no run folder.
#include <QtTest>

#include "test_main.h"

#include "collecting_sink.h"
#include "core/plan/plan.h"
#include "core/run/plan_runner.h"
#include "run_folder_reader.h"

class RunLaunchGuardTest : public QObject {
  Q_OBJECT
 private slots:
  void refusedUnlessAllowed() {
    const nlohmann::json plan = {
        {"name", "guard"},
        {"lanes",
         {{{"id", "a"},
           {"base_url", "http://127.0.0.1:{port}/v1"},
           {"launch",
            {{"command", {"/bin/sh", "-c", "touch \"$0\"", "launched-marker"}},
             {"ready", {{"url", "http://127.0.0.1:{port}/health"}, {"timeout_s", 1}}}}}}}},
        {"experiments", {{{"kind", "throughput"}, {"concurrency", {1}}, {"requests", 1}}}}};
    const auto parsed = lb::plan::parse_plan(plan.dump(), "p.json");
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    const auto dir = lb::test::fresh_dir("lb-launch-guard");
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    lb::run::PlanRunner runner(*parsed.plan, {dir.string(), "test", false}, sink);
    const auto result = runner.run(stop);
    QCOMPARE(result.exit_code, lb::run::kExitInput);
    QCOMPARE(result.errors.size(), size_t(1));
    QVERIFY(result.errors[0].find("--allow-launch") != std::string::npos);
    QVERIFY(!std::filesystem::exists(dir));
    QVERIFY(!std::filesystem::exists("launched-marker"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RunLaunchGuardTest)
#include "run_launch_guard_test.moc"
