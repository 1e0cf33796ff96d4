// A managed lane's key and its server's environment come from the run's Environment value, not
// from the process environment: a test (or a front end) gives a run its own variables without
// calling setenv while the client's, the server's and the spawner's threads read `environ`.
// Run under TSan (scripts/sanitizers.sh) with a real server process started and stopped.
#include <QtTest>

#include <cstdlib>

#include "test_main.h"

#include "collecting_sink.h"
#include "core/plan/plan.h"
#include "core/run/plan_runner.h"
#include "fake_vllm.h"
#include "run_folder_reader.h"

namespace fs = std::filesystem;

class RunManagedEnvTest : public QObject {
  Q_OBJECT
 private slots:
  void serverAndKeyReadTheRunsEnvironment() {
    QVERIFY(std::getenv("LB_MANAGED_TEST_INHERITED") == nullptr);
    QVERIFY(std::getenv("LB_MANAGED_TEST_KEY") == nullptr);
    const fs::path dir = lb::test::fresh_dir("lb-managed-env");
    const fs::path marker = dir.string() + ".marker";
    fs::remove(marker);
    // Ready once the "server" wrote what it inherited: on a loaded machine the run could
    // otherwise finish and stop it before its shell got to the printf.
    lb::test::FakeVllmOptions fake{.ttft_us = 1'000, .itl_us = 200, .tokens = 2};
    fake.healthy = [marker] {
      std::error_code ec;
      return fs::file_size(marker, ec) > 0 && !ec;
    };
    lb::test::FakeVllm server(fake);
    // The "server" writes what it inherited, then waits to be stopped; the fake answers for it.
    const std::string script =
        "printf '%s|%s' \"$LB_MANAGED_TEST_INHERITED\" \"$FROM_LAUNCH\" > \"$0\"; exec sleep 30";
    const std::string health =
        server.base_url().substr(0, server.base_url().size() - 3) + "/health";
    const nlohmann::json plan = {{"name", "managed env"},
                                 {"lanes",
                                  {{{"id", "srv"},
                                    {"base_url", server.base_url()},
                                    {"api_key_env", "LB_MANAGED_TEST_KEY"},
                                    {"launch",
                                     {{"command", {"/bin/sh", "-c", script, marker.string()}},
                                      {"env", {{"FROM_LAUNCH", "from-the-launch-block"}}},
                                      {"ready", {{"url", health}, {"timeout_s", 20}}},
                                      {"stop", {{"signal", "SIGTERM"}, {"grace_s", 5}}}}}}}},
                                 {"experiments",
                                  {{{"kind", "throughput"},
                                    {"concurrency", {1}},
                                    {"requests", 2},
                                    {"warmups", 0},
                                    {"input_tokens", 16},
                                    {"output_tokens", 2}}}}};
    const auto parsed = lb::plan::parse_plan(plan.dump(), "p.json");
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    lb::run::RunOptions options{dir.string(), "test"};
    options.allow_launch = true;
    options.environment = lb::plan::Environment::of_process()
                              .with("LB_MANAGED_TEST_INHERITED", "from-the-run")
                              .with("LB_MANAGED_TEST_KEY", "sk-managed-test-77")
                              .allowing_key("LB_MANAGED_TEST_KEY", "127.0.0.1");
    lb::test::CollectingSink sink;
    sink.summary_path = dir / "summary.json";
    std::atomic<bool> stop{false};
    const auto result = lb::run::PlanRunner(*parsed.plan, options, sink).run(stop);
    QVERIFY2(result.errors.empty(), result.errors.empty() ? "" : result.errors.front().c_str());
    QCOMPARE(result.exit_code, lb::run::kExitOk);
    QCOMPARE(lb::test::read_text(marker), std::string("from-the-run|from-the-launch-block"));
    QVERIFY(server.chat_requests() >= 2);
    // The experiment is announced over once its managed lane ran in it, as the file holds it.
    QCOMPARE(sink.sections.size(), size_t(1));
    QCOMPARE(sink.sections_told_before_written, 0);
    QVERIFY(sink.sections[0].second.lane("srv") != nullptr);
    QVERIFY(!sink.sections[0].second.lane("srv")->phases.empty());
    // The key was used, and is written nowhere.
    for (const auto& entry : fs::recursive_directory_iterator(dir))
      if (entry.is_regular_file())
        QVERIFY2(lb::test::read_text(entry.path()).find("sk-managed-test-77") == std::string::npos,
                 entry.path().c_str());
    fs::remove(marker);
    fs::remove_all(dir);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RunManagedEnvTest)
#include "run_managed_env_test.moc"
