// Security and honesty of `lanebench-cli` with files and servers from elsewhere (docs/security.md):
// a server's error quoting the key is redacted in every file and on stdout; a write that fails
// (a full disk) fails the run with the file named; a prompt set named by a plan is found beside
// the plan, and one that cannot be read is an error, not a regression silently skipped; `probe`
// speaks only http and https; the first Ctrl-C ends a run held by a server within a second.

#include <signal.h>
#include <unistd.h>

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QtTest>

#include "test_main.h"

#include "loopback_listener.h"

#include "cli_process.h"
#include "fake_vllm.h"
#include "run_folder_reader.h"
#include "test_paths.h"
#include "timing_slack.h"

namespace fs = std::filesystem;
using lb::test::qstr;
using nlohmann::json;

namespace {

json regression_plan(const std::string& url, const std::string& prompts) {
  return {{"name", "attacks"},
          {"lanes", {{{"id", "a"}, {"base_url", url}, {"api_key_env", "LB_ATTACK_TEST_KEY"}}}},
          {"experiments", {{{"kind", "regression"}, {"prompts", prompts}, {"max_tokens", 4}}}}};
}

QProcessEnvironment keyed_env(const std::string& key) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("LB_ATTACK_TEST_KEY", QString::fromStdString(key));
  return env;
}

}  // namespace

class AppCliAttacksTest : public QObject {
  Q_OBJECT
 private slots:
  // Case 7: requests.jsonl had the key redacted; summary.json (prompt_errors) and `run --json`
  // on stdout kept it verbatim.
  void aServerQuotingTheKeyIsRedactedEverywhere() {
    lb::test::FakeVllmOptions o{.ttft_us = 500, .itl_us = 100, .tokens = 2};
    o.status_for = [](uint64_t n) { return n % 2 == 0 ? 401 : 200; };
    lb::test::FakeVllm server(o);
    const std::string key = "sk-attack-quoted-" + std::to_string(::getpid()) + "-5eed";
    const fs::path dir = lb::test::fresh_dir("lb-attack-quoted");
    fs::create_directories(dir);
    const fs::path out = dir / "run";
    const std::string plan = lb::test::write_plan_file(
        dir / "plan.json", regression_plan(server.base_url(), "builtin:regression-20"));
    const auto r = lb::test::run_program(
        lb::test::cli_path(),
        {"run", qstr(plan), "--out", qstr(out), "--json", "--allow-env", "LB_ATTACK_TEST_KEY"},
        keyed_env(key));
    QVERIFY2(r.exit_code >= 0, r.err.c_str());
    QVERIFY2(
        lb::test::read_text(out / "summary.json").find("Incorrect API key") != std::string::npos,
        "the server's refusals are recorded");
    for (const auto& file : lb::test::files_under(out))
      QVERIFY2(lb::test::read_text(file).find(key) == std::string::npos, file.c_str());
    QVERIFY2(r.out.find(key) == std::string::npos, "the key was printed on stdout");
    QVERIFY2(r.err.find(key) == std::string::npos, "the key was printed on stderr");
    fs::remove_all(dir);
  }

  // Case 12: into a full disk, request lines and summary.json were lost, and the run exited 0.
  void aRunThatCannotWriteItsFilesFails() {
    lb::test::FakeVllm server(lb::test::FakeVllmOptions{.ttft_us = 200, .itl_us = 50, .tokens = 2});
    const fs::path dir = lb::test::fresh_dir("lb-attack-full-disk");
    fs::create_directories(dir);
    json plan = regression_plan(server.base_url(), "builtin:regression-20");
    plan["lanes"][0].erase("api_key_env");
    const std::string plan_path = lb::test::write_plan_file(dir / "plan.json", plan);
    // Files may grow to 8 KiB: past that, writes fail with EFBIG (SIGXFSZ ignored), as on a
    // full disk.
    const std::string command = "trap '' XFSZ; ulimit -f 8; exec \"$0\" run \"$1\" --out \"$2\"";
    const auto r = lb::test::run_program(
        "/bin/bash", {"-c", QString::fromStdString(command), lb::test::cli_path(), qstr(plan_path),
                      qstr(dir / "run")});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.find("requests.jsonl") != std::string::npos ||
                 r.err.find("summary.json") != std::string::npos,
             r.err.c_str());
    fs::remove_all(dir);
  }

  // Case 12: a relative "prompts" was resolved against the working directory (traces against the
  // plan's folder): the regression silently did not run and the exit code was 0.
  void promptSetsAreFoundBesideThePlan() {
    lb::test::FakeVllm server(lb::test::FakeVllmOptions{.ttft_us = 200, .itl_us = 50, .tokens = 2});
    const fs::path dir = lb::test::fresh_dir("lb-attack-relative");
    fs::create_directories(dir / "plans" / "sets");
    std::ofstream(dir / "plans" / "sets" / "two.jsonl") << R"({"id": "one", "prompt": "Say one."})"
                                                        << "\n"
                                                        << R"({"id": "two", "prompt": "Say two."})"
                                                        << "\n";
    json plan = regression_plan(server.base_url(), "sets/two.jsonl");
    plan["lanes"][0].erase("api_key_env");
    const std::string plan_path = lb::test::write_plan_file(dir / "plans" / "plan.json", plan);
    auto r = lb::test::run_program(lb::test::cli_path(),
                                   {"run", qstr(plan_path), "--out", qstr(dir / "run")});
    QVERIFY2(r.exit_code == 0, r.err.c_str());
    QCOMPARE(lb::test::read_json(dir / "run" / "texts" / "a.texts.json").size(), size_t(2));

    plan["experiments"][0]["prompts"] = "sets/missing.jsonl";
    lb::test::write_plan_file(dir / "plans" / "plan.json", plan);
    r = lb::test::run_program(lb::test::cli_path(),
                              {"run", qstr(plan_path), "--out", qstr(dir / "run2")});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.find("experiments[0].prompts") != std::string::npos, r.err.c_str());
    QVERIFY(!fs::exists(dir / "run2" / "summary.json"));
    fs::remove_all(dir);
  }

  // Case 15: the --allow-launch refusal printed ESC and CR raw, so it could show `vllm serve ...`
  // while the real command was another.
  void theLaunchListingShowsTheRealCommand() {
    const fs::path dir = lb::test::fresh_dir("lb-attack-escape");
    fs::create_directories(dir);
    const json plan = {
        {"name", "escape"},
        {"lanes",
         {{{"id", "a"},
           {"base_url", "http://127.0.0.1:{port}/v1"},
           {"launch",
            {{"command",
              {"/bin/sh", "-c", "rm -rf ~/x\r\x1b[2Kvllm serve Qwen/Qwen3-8B\x1b]52;c;aGk=\x07"}},
             {"ready", {{"url", "http://127.0.0.1:{port}/health"}}}}}}}},
        {"experiments", {{{"kind", "throughput"}, {"concurrency", {1}}, {"requests", 1}}}}};
    const std::string path = lb::test::write_plan_file(dir / "plan.json", plan);
    const auto r = lb::test::run_program(lb::test::cli_path(),
                                         {"run", qstr(path), "--out", qstr(dir / "run")});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.find("rm -rf") != std::string::npos, r.err.c_str());
    QVERIFY2(r.err.find('\x1b') == std::string::npos, "an escape sequence reached the terminal");
    QVERIFY2(r.err.find('\r') == std::string::npos, "a carriage return reached the terminal");
    QVERIFY2(r.err.find('\x07') == std::string::npos, "a BEL reached the terminal");
    fs::remove_all(dir);
  }

  // Case 16: `probe` spoke every libcurl protocol: gopher:// delivered raw bytes to a TCP port.
  void probeSpeaksOnlyHttp() {
    lb::test::LoopbackListener listener;
    for (const char* scheme : {"gopher", "dict", "telnet"}) {
      const QString url = QString("%1://127.0.0.1:%2/x").arg(scheme).arg(listener.port());
      const auto r = lb::test::run_program(lb::test::cli_path(), {"probe", url},
                                           QProcessEnvironment::systemEnvironment(), 20'000);
      QVERIFY2(r.exit_code != 0, scheme);
      QVERIFY2(!listener.was_connected(), scheme);
    }
  }

  // Case 10: a run held by a server that never stops (or never starts) answering ends at the
  // first Ctrl-C within a second, whatever it is doing: probing a lane that never answers,
  // reading a stream that never ends, or waiting on a functional gate's answer.
  void theFirstCtrlCEndsTheRunWithinASecond_data() {
    QTest::addColumn<QString>("stage");
    QTest::newRow("probing a lane that never answers") << "probe";
    QTest::newRow("reading a stream that never ends") << "stream";
    QTest::newRow("waiting on a gate's answer") << "gate";
  }
  void theFirstCtrlCEndsTheRunWithinASecond() {
    QFETCH(QString, stage);
    lb::test::LoopbackListener silent;  // accepts (the kernel does), never answers
    lb::test::FakeVllmOptions o{.ttft_us = stage == "gate" ? 60'000'000 : 1'000,
                                .itl_us = 2'000,
                                .tokens = 50'000};  // 100 s of stream, whatever max_tokens says
    lb::test::FakeVllm server(o);
    const std::string url = stage == "probe"
                                ? "http://127.0.0.1:" + std::to_string(silent.port()) + "/v1"
                                : server.base_url();
    json experiment = {{"kind", "throughput"}, {"concurrency", {1}}, {"requests", 4},
                       {"warmups", 0},         {"input_tokens", 32}, {"output_tokens", 100'000}};
    if (stage == "gate") experiment = {{"kind", "gates"}, {"checks", {"streaming"}}};
    const json plan = {{"name", "held"},
                       {"lanes", {{{"id", "a"}, {"base_url", url}}}},
                       {"experiments", {experiment}}};
    const fs::path dir = lb::test::fresh_dir("lb-attack-ctrl-c");
    fs::create_directories(dir);
    const std::string plan_path = lb::test::write_plan_file(dir / "plan.json", plan);
    QProcess p;
    p.start(lb::test::cli_path(), {"run", qstr(plan_path), "--out", qstr(dir / "run")});
    QVERIFY(p.waitForStarted());
    // The run is inside the stage: the probe is waiting, or the server has a request in hand.
    QDeadlineTimer inside(20'000);
    while (stage != "probe" && server.chat_requests() == 0 && !inside.hasExpired())
      QTest::qWait(20);
    QVERIFY2(stage == "probe" || server.chat_requests() > 0, "the run never reached the server");
    QTest::qWait(700);
    QCOMPARE(p.state(), QProcess::Running);
    QElapsedTimer stopping;
    stopping.start();
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(10'000));
    const qint64 stop_ms = stopping.elapsed();
    qInfo("%s: stopped %lld ms after SIGINT", qPrintable(stage), static_cast<long long>(stop_ms));
    QCOMPARE(p.exitCode(), 130);
    // Within a second; an instrumented build (tests/support/timing_slack.h) tears its process
    // down more slowly and gets twenty times its slack on top.
    QVERIFY2(stop_ms < 1'000 + 20 * lb::test::slack_ms,
             qPrintable(QString::number(stop_ms) + " ms"));
    fs::remove_all(dir);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(AppCliAttacksTest)
#include "app_cli_attacks_test.moc"
