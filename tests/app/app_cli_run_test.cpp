// lanebench-cli end to end: `run` against vLLM look-alikes on loopback (exit code, run folder,
// results table, progress on stderr), a bad plan (exit 2, every problem named by field), a bad
// trace (exit 2, its file and line named), Ctrl-C (clean stop, exit 130, what finished kept),
// SIGKILL mid-run (requests.jsonl readable with every request it had recorded), `probe`, and
// --version.
#include <signal.h>

#include <QDeadlineTimer>
#include <QProcess>
#include <QtTest>

#include <set>
#include "test_main.h"

#include "fake_vllm.h"
#include "run_folder_reader.h"
#include "test_paths.h"

using lb::test::FakeVllm;
using lb::test::FakeVllmOptions;
namespace fs = std::filesystem;

namespace {

struct CliResult {
  int exit_code = -1;
  QString out;
  QString err;
};

CliResult run_cli(const QStringList& args, int timeout_ms = 60'000) {
  QProcess p;
  p.start(lb::test::cli_path(), args);
  if (!p.waitForFinished(timeout_ms)) {
    p.kill();
    p.waitForFinished();
  }
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
          QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

std::string write_plan(const fs::path& path, const nlohmann::json& plan) {
  std::ofstream(path) << plan.dump(2);
  return path.string();
}

nlohmann::json throughput_plan(const std::string& url, int requests, int concurrency) {
  return {{"name", "cli"},
          {"lanes", {{{"id", "lane-a"}, {"base_url", url}}}},
          {"experiments",
           {{{"kind", "throughput"},
             {"concurrency", {concurrency}},
             {"requests", requests},
             {"warmups", 1},
             {"input_tokens", 32},
             {"output_tokens", 4}}}}};
}

size_t line_count(const fs::path& path) {
  const std::string text = lb::test::read_text(path);
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

// Starts `lanebench-cli run PLAN --out OUT` in P and waits until OUT's requests.jsonl holds at
// least MIN_LINES finished requests. False (with the reason logged) when it never gets there.
bool start_run_until(QProcess& p, const std::string& plan, const fs::path& out, size_t min_lines,
                     int timeout_ms) {
  p.start(lb::test::cli_path(),
          {"run", QString::fromStdString(plan), "--out", QString::fromStdString(out.string())});
  if (!p.waitForStarted()) {
    qWarning("lanebench-cli did not start: %s", qPrintable(p.errorString()));
    return false;
  }
  QDeadlineTimer deadline(timeout_ms);
  while (!fs::exists(out / "requests.jsonl") || line_count(out / "requests.jsonl") < min_lines) {
    if (deadline.hasExpired() || p.state() == QProcess::NotRunning) {
      qWarning("the run never recorded %zu requests", min_lines);
      return false;
    }
    QTest::qWait(20);
  }
  return true;
}

}  // namespace

class TestCliRun : public QObject {
  Q_OBJECT
 private slots:
  void versionAndUsage() {
    auto v = run_cli({"--version"});
    QCOMPARE(v.exit_code, 0);
    QVERIFY(v.out.contains("lanebench-cli"));
    auto missing = run_cli({"run"});
    QCOMPARE(missing.exit_code, 2);
  }

  // Without a terminal (a log, CI), progress is a line when a phase starts and one when it ends,
  // not four a second: a 3-second phase gives two lines, not a dozen.
  void progressWithoutATerminalIsALinePerPhase() {
    FakeVllm server(FakeVllmOptions{.ttft_us = 10'000, .itl_us = 250'000, .tokens = 4});
    const auto dir = lb::test::fresh_dir("lb-cli-log");
    fs::create_directories(dir);
    const auto plan = write_plan(dir / "plan-in.json", throughput_plan(server.base_url(), 3, 1));
    auto r = run_cli({"run", QString::fromStdString(plan), "--out",
                      QString::fromStdString((dir / "out").string())});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const QStringList progress = r.err.split('\n').filter(" done  ");
    QVERIFY2(!progress.isEmpty(), qPrintable(r.err));
    QVERIFY2(progress.size() <= 4, qPrintable(progress.join('\n')));  // warm-up and c1
    QVERIFY2(progress.last().contains("3/3 done"), qPrintable(progress.join('\n')));
  }

  void runWritesAFolderAndATable() {
    FakeVllm server(FakeVllmOptions{.ttft_us = 15'000, .itl_us = 2'000, .tokens = 4});
    const auto dir = lb::test::fresh_dir("lb-cli-run");
    fs::create_directories(dir);
    const auto plan = write_plan(dir / "plan-in.json", throughput_plan(server.base_url(), 8, 2));
    const auto out = dir / "out";
    auto r = run_cli(
        {"run", QString::fromStdString(plan), "--out", QString::fromStdString(out.string())});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("median TTFT ms"));
    QVERIFY(r.out.contains("lane-a"));
    QVERIFY(r.err.contains("done"));  // progress lines (stderr is not a terminal here)
    QVERIFY(!r.err.contains('\r'));
    const auto lines = lb::test::read_jsonl(out / "requests.jsonl");
    QCOMPARE(lines.size(), size_t(9));
    const auto summary = lb::test::read_json(out / "summary.json");
    const auto& c2 = summary["experiments"][0]["lanes"]["lane-a"]["phases"]["c2"];
    QCOMPARE(c2["completed"].get<int>(), 8);
    QVERIFY(c2["median_ttft_ms"].get<double>() >= 15.0);

    auto json = run_cli({"run", QString::fromStdString(plan), "--out",
                         QString::fromStdString((dir / "out2").string()), "--json"});
    QCOMPARE(json.exit_code, 0);
    const auto j = nlohmann::json::parse(json.out.toStdString());
    QCOMPARE(j["exit_code"].get<int>(), 0);
    QCOMPARE(j["requests_written"].get<int>(), 9);
    // A used folder is refused.
    auto again = run_cli(
        {"run", QString::fromStdString(plan), "--out", QString::fromStdString(out.string())});
    QCOMPARE(again.exit_code, 2);
    QVERIFY(again.err.contains("not empty"));
    fs::remove_all(dir);
  }

  void badPlanNamesEveryField() {
    const auto dir = lb::test::fresh_dir("lb-cli-badplan");
    fs::create_directories(dir);
    nlohmann::json bad = {
        {"lanes", {{{"id", "a"}, {"base_url", "http://127.0.0.1:1/v1"}, {"colour", "red"}}}},
        {"experiments", {{{"kind", "throughput"}, {"concurrency", {0}}}}}};
    const auto plan = write_plan(dir / "bad.json", bad);
    auto r = run_cli({"run", QString::fromStdString(plan), "--out",
                      QString::fromStdString((dir / "out").string())});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("colour"), qPrintable(r.err));
    QVERIFY2(r.err.contains("concurrency"), qPrintable(r.err));
    QVERIFY(!fs::exists(dir / "out"));
    std::ofstream(dir / "broken.json") << "{\"lanes\": [";
    auto broken = run_cli({"run", QString::fromStdString((dir / "broken.json").string()), "--out",
                           QString::fromStdString((dir / "out").string())});
    QCOMPARE(broken.exit_code, 2);
    fs::remove_all(dir);
  }

  // A trace path is relative to the plan's folder; a malformed row stops the run before any lane
  // starts, naming the trace's file and line.
  void badTraceNamesItsFileAndLine() {
    const auto dir = lb::test::fresh_dir("lb-cli-badtrace");
    fs::create_directories(dir / "traces");
    fs::copy_file(lb::test::fixture_path("traces/mooncake_bad_rows.jsonl"),
                  dir / "traces" / "bad.jsonl");
    nlohmann::json plan = {{"name", "trace"},
                           {"lanes", {{{"id", "a"}, {"base_url", "http://127.0.0.1:1/v1"}}}},
                           {"experiments", {{{"kind", "trace"}, {"path", "traces/bad.jsonl"}}}}};
    const auto path = write_plan(dir / "plan.json", plan);
    auto r = run_cli({"run", QString::fromStdString(path), "--out",
                      QString::fromStdString((dir / "out").string())});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("experiments[0].path"), qPrintable(r.err));
    QVERIFY2(r.err.contains("bad.jsonl:3: missing 'output_length'"), qPrintable(r.err));
    QVERIFY2(r.err.contains("bad.jsonl:5: not a JSON object"), qPrintable(r.err));
    QVERIFY(!fs::exists(dir / "out"));
    fs::remove_all(dir);
  }

  void ctrlCStopsCleanlyAndKeepsWhatFinished() {
    FakeVllm server(FakeVllmOptions{.ttft_us = 100'000, .itl_us = 1'000, .tokens = 2});
    const auto dir = lb::test::fresh_dir("lb-cli-sigint");
    fs::create_directories(dir);
    const auto plan = write_plan(dir / "plan.json", throughput_plan(server.base_url(), 200, 2));
    const auto out = dir / "out";
    QProcess p;
    QVERIFY(start_run_until(p, plan, out, 5, 10'000));
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(5'000));
    QCOMPARE(p.exitCode(), 130);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains("interrupted"), qPrintable(err));
    const auto lines = lb::test::read_jsonl(out / "requests.jsonl");
    QVERIFY(lines.size() >= 5 && lines.size() < 100);
    for (const auto& l : lines) QVERIFY(l["ok"].get<bool>());  // cancelled ones are not "finished"
    const auto summary = lb::test::read_json(out / "summary.json");
    QVERIFY(summary["run"]["interrupted"].get<bool>());
    QCOMPARE(summary["experiments"][0]["status"].get<std::string>(), std::string("interrupted"));
    fs::remove_all(dir);
  }

  void sigkillLeavesEveryRecordedRequestReadable() {
    FakeVllm server(FakeVllmOptions{.ttft_us = 5'000, .itl_us = 1'000, .tokens = 3});
    const auto dir = lb::test::fresh_dir("lb-cli-sigkill");
    fs::create_directories(dir);
    const auto plan = write_plan(dir / "plan.json", throughput_plan(server.base_url(), 5000, 4));
    const auto out = dir / "out";
    QProcess p;
    QVERIFY(start_run_until(p, plan, out, 30, 20'000));
    const uint64_t answered_before_kill = server.chat_requests();
    p.kill();  // SIGKILL: no handler runs
    QVERIFY(p.waitForFinished(5'000));
    const std::string text = lb::test::read_text(out / "requests.jsonl");
    QVERIFY(!text.empty() && text.back() == '\n');  // no torn last line
    const auto lines = lb::test::read_jsonl(out / "requests.jsonl");
    QVERIFY(lines.size() >= 30);
    // Everything the server had finished, except what was still on its way back (at most the
    // requests in flight) is there.
    QVERIFY(lines.size() + 8 >= answered_before_kill);
    std::set<int64_t> measured;
    for (const auto& l : lines)
      if (!l["warmup"].get<bool>()) QVERIFY(measured.insert(l["index"].get<int64_t>()).second);
    QVERIFY(fs::exists(out / "plan.json"));
    QVERIFY(fs::exists(out / "environment.json"));
    fs::remove_all(dir);
  }

  void simLanesRunInProcess() {
    const auto dir = lb::test::fresh_dir("lb-cli-sim");
    fs::create_directories(dir);
    nlohmann::json plan = {
        {"name", "sim"},
        {"lanes",
         {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.01"}},
          {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.01&flip_facts=1"}}}},
        {"experiments",
         {{{"kind", "regression"}, {"prompts", "builtin:regression-20"}, {"max_tokens", 48}},
          {{"kind", "throughput"},
           {"concurrency", {1, 4}},
           {"requests", 8},
           {"input_tokens", 256},
           {"output_tokens", 16}}}}};
    const auto path = write_plan(dir / "plan.json", plan);
    const auto out = dir / "out";
    auto r = run_cli(
        {"run", QString::fromStdString(path), "--out", QString::fromStdString(out.string())});
#ifdef LANEBENCH_HAVE_SIM
    // The fp8 lane is told to flip facts: the regression must catch it and fail the run.
    QVERIFY2(r.exit_code == 1, qPrintable(r.err));
    QVERIFY(r.err.contains("flips"));
    const auto summary = lb::test::read_json(out / "summary.json");
    const auto& c4 = summary["experiments"][1]["lanes"]["fp8"]["phases"]["c4"];
    QCOMPARE(c4["completed"].get<int>(), 8);
    QCOMPARE(c4["total_output_tokens"].get<int>(), 8 * 16);  // ignore_eos honoured
    QVERIFY(fs::exists(out / "review.json"));
    QVERIFY(fs::exists(out / "metrics/fp8.after.prom"));
    const auto env = lb::test::read_json(out / "environment.json");
    QCOMPARE(env["lanes"]["fp8"]["probe"]["server_kind"].get<std::string>(),
             std::string("lanebench-sim"));
#else
    QCOMPARE(r.exit_code, 2);
    QVERIFY(r.err.contains("not available in this build"));
#endif
    fs::remove_all(dir);
  }

  // Only the desktop app reads the OS keyring: the CLI names the lane and says what to do.
  void keyringLaneIsRefusedWithAClearMessage() {
    FakeVllm server;
    const auto dir = lb::test::fresh_dir("lb-cli-keyring");
    fs::create_directories(dir);
    nlohmann::json plan = throughput_plan(server.base_url(), 2, 1);
    plan["lanes"][0]["api_key_env"] = "keyring:lane-a";
    const auto path = write_plan(dir / "plan.json", plan);
    auto r = run_cli({"run", QString::fromStdString(path), "--out",
                      QString::fromStdString((dir / "out").string())});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.contains("lane lane-a: its key is in the OS keyring (api_key_env "
                            "keyring:lane-a)"),
             qPrintable(r.err));
    QVERIFY2(r.err.contains("set api_key_env to its name instead"), qPrintable(r.err));
    QCOMPARE(server.chat_requests(), uint64_t(0));
    fs::remove_all(dir);
  }

  void probeSaysWhatServes() {
    FakeVllm server;
    auto r = run_cli({"probe", QString::fromStdString(server.base_url())});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("vllm 0.11.0"));
    QVERIFY(r.out.contains("test-org/test-model-8b"));
    QVERIFY(r.out.contains("8192"));
    QVERIFY(r.out.contains("vllm:"));
    auto j = run_cli({"probe", QString::fromStdString(server.base_url()), "--json"});
    QCOMPARE(j.exit_code, 0);
    const auto probe = nlohmann::json::parse(j.out.toStdString());
    QCOMPARE(probe["server_kind"].get<std::string>(), std::string("vllm"));
    QCOMPARE(probe["max_context_tokens"].get<int>(), 8192);
    QCOMPARE(probe["metrics_families"], nlohmann::json({"vllm"}));
    auto down = run_cli({"probe", "http://127.0.0.1:9/v1"});
    QCOMPARE(down.exit_code, 2);
    QVERIFY(!down.err.isEmpty());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestCliRun)
#include "app_cli_run_test.moc"
