// Managed lanes end to end: lanebench-cli run starts the real lanebench-sim as a child process
// for each lane with a launch block, waits for it, measures it and stops it. A plan that starts
// programs needs --allow-launch; servers that cannot start, exit early or never become ready are
// reported by name while the run goes on; Ctrl-C (once or twice) and a server that ignores
// SIGTERM leave no process of any server's group behind; secret env values reach no file.
#include <signal.h>

#include <QtTest>

#include <fstream>
#include <sstream>

#include "test_main.h"

#include "cli_process.h"
#include "managed_plans.h"
#include "run_folder_reader.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace lb::test;

namespace managed_lanes_test {

std::string whole_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Starts `lanebench-cli run` and returns once stderr shows `line` `count` times (or it ended).
bool wait_for_output(QProcess& p, std::string& err, const std::string& line, int count) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  auto seen = [&] {
    int n = 0;
    for (size_t at = err.find(line); at != std::string::npos; at = err.find(line, at + 1)) ++n;
    return n;
  };
  while (seen() < count && std::chrono::steady_clock::now() < deadline &&
         p.state() != QProcess::NotRunning) {
    p.waitForReadyRead(200);
    err += p.readAllStandardError().toStdString();
  }
  return seen() >= count;
}

std::vector<pid_t> server_pids(const json& summary) {
  std::vector<pid_t> out;
  if (!summary.contains("servers")) return out;
  for (const auto& record : summary["servers"])
    if (record.contains("pid")) out.push_back(record["pid"].get<pid_t>());
  return out;
}

}  // namespace managed_lanes_test

using namespace managed_lanes_test;

class CliManagedLanesTest : public QObject {
  Q_OBJECT
 private slots:
  void refusedWithoutAllowLaunch() {
    const auto dir = fresh_dir("lb-managed-refuse");
    fs::create_directories(dir);
    json launch = sim_launch("fp8");
    launch["env"] = {{"SIM_API_TOKEN", "tok-not-for-eyes-77"}};
    const json plan = {{"name", "refuse"},
                       {"lanes", {managed_lane("fp8", launch)}},
                       {"experiments", {small_throughput()}}};
    const auto r = run_program(cli_path(), {"run", qstr(write_plan_file(dir / "p.json", plan)),
                                            "--out", qstr(dir / "run")});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(text_contains(r.err, "--allow-launch"), r.err.c_str());
    const std::string shown = std::string("fp8: SIM_API_TOKEN=[redacted] ") + sim_path() +
                              " --profile fp8 --port {port} --time-scale 0.05";
    QVERIFY2(text_contains(r.err, shown), r.err.c_str());
    QVERIFY(!text_contains(r.err, "tok-not-for-eyes-77"));
    QVERIFY(!fs::exists(dir / "run"));
    fs::remove_all(dir);
  }

  void failingServersAreNamedAndTheRunGoesOn() {
    const auto dir = fresh_dir("lb-managed-fail");
    fs::create_directories(dir);
    json never_ready = sim_launch("fp8");
    never_ready["ready"] = {{"url", "http://127.0.0.1:{port}/not-here"}, {"timeout_s", 2}};
    json early_exit = sim_launch("no-such-profile");
    // Prints its secret to its log, then dies: the log keeps the line with the value redacted.
    json chatty = {{"command", {"/bin/sh", "-c", "echo \"my token is $SIM_API_TOKEN\"; exit 3"}},
                   {"env", {{"SIM_API_TOKEN", "tok-not-for-eyes-77"}}},
                   {"ready", {{"url", "http://127.0.0.1:{port}/health"}}}};
    json good = sim_launch("fp8");
    good["env"] = {{"SIM_API_TOKEN", "tok-not-for-eyes-77"}};
    const json plan = {
        {"name", "failing launches"},
        {"lanes",
         {managed_lane("broken",
                       {{"command", {"/nonexistent/lanebench-server", "--port", "{port}"}},
                        {"ready", {{"url", "http://127.0.0.1:{port}/health"}}}}),
          managed_lane("never-ready", never_ready), managed_lane("early-exit", early_exit),
          managed_lane("chatty", chatty), managed_lane("good", good)}},
        {"experiments", {small_throughput()}}};
    const auto r = run_program(cli_path(), {"run", qstr(write_plan_file(dir / "p.json", plan)),
                                            "--out", qstr(dir / "run"), "--allow-launch"});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(text_contains(r.err,
                           "lane broken: server could not start: cannot start "
                           "/nonexistent/lanebench-server: No such file or directory"),
             r.err.c_str());
    QVERIFY2(text_contains(r.err, "lane never-ready: server was not ready after 2 s"),
             r.err.c_str());
    QVERIFY2(
        text_contains(r.err, "lane early-exit: server exited before it was ready (exit code 2)"),
        r.err.c_str());
    QVERIFY2(text_contains(r.err, "unknown simulator profile"), r.err.c_str());  // the log's tail
    const json summary = read_json(dir / "run" / "summary.json");
    const json& servers = summary["servers"];
    for (const char* lane : {"broken", "never-ready", "early-exit", "chatty"})
      QCOMPARE(servers[lane]["status"].get<std::string>(), std::string("failed"));
    QCOMPARE(servers["good"]["status"].get<std::string>(), std::string("stopped"));
    QCOMPARE(servers["good"]["exit"]["exit_code"].get<int>(), 0);
    QCOMPARE(servers["early-exit"]["exit"]["exit_code"].get<int>(), 2);
    QVERIFY(servers["never-ready"]["killed_after_grace"].is_boolean());
    const json& phases = summary["experiments"][0]["lanes"]["good"]["phases"];
    QCOMPARE(phases["c4"]["completed"].get<int>(), 8);
    QVERIFY(text_contains(whole_file(dir / "run" / "servers" / "early-exit.log"),
                          "unknown simulator profile"));
    QVERIFY(
        text_contains(whole_file(dir / "run" / "servers" / "good.log"), "fp8 http://127.0.0.1:"));
    QVERIFY(text_contains(whole_file(dir / "run" / "servers" / "chatty.log"),
                          "my token is [redacted]"));
    QVERIFY2(text_contains(r.err, "lane chatty: server exited before it was ready (exit code 3)"),
             r.err.c_str());
    QVERIFY(!text_contains(r.err, "tok-not-for-eyes-77"));
    for (pid_t pid : server_pids(summary)) QVERIFY(process_group_gone(pid));
    // The report lists each failed server among its caveats.
    const auto report =
        run_program(cli_path(), {"report", qstr(dir / "run"), "--out", qstr(dir / "report")});
    QVERIFY2(report.exit_code == 0, report.err.c_str());
    const std::string md = whole_file(dir / "report" / "report.md");
    for (const char* lane : {"broken", "never-ready", "early-exit", "chatty"})
      QVERIFY2(text_contains(md, std::string("lane ") + lane + ": server "), md.c_str());
    for (const auto& f : files_under(dir / "run"))
      QVERIFY2(!text_contains(whole_file(f), "tok-not-for-eyes-77"), f.string().c_str());
    fs::remove_all(dir);
  }

  void performanceGateAcrossPassesIsJudged() {
    // The baseline runs in the plan's own pass, the managed candidate alone after it: the gate
    // pairs the two passes' phase values once both are done.
    const auto dir = fresh_dir("lb-managed-gate");
    fs::create_directories(dir);
    json load = small_throughput();
    load["concurrency"] = {1};
    load["performance_gates"] = {{{"figure", "median_decode_tok_s"},
                                  {"candidate", "fp8"},
                                  {"baseline", "bf16"},
                                  {"min_ratio", 1.2}}};
    const json plan = {{"name", "gate across passes"},
                       {"lanes",
                        {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.05"}},
                         managed_lane("fp8", sim_launch("fp8"))}},
                       {"experiments", {load}}};
    const auto r = run_program(cli_path(), {"run", qstr(write_plan_file(dir / "p.json", plan)),
                                            "--out", qstr(dir / "run"), "--allow-launch"});
    const json summary = read_json(dir / "run" / "summary.json");
    const json& experiment = summary["experiments"][0];
    QVERIFY2(experiment.contains("performance_gates"), r.err.c_str());
    const json& judged = experiment["performance_gates"];
    QCOMPARE(judged.size(), size_t(1));
    QCOMPARE(judged[0]["phase"].get<std::string>(), std::string("c1"));
    // fp8 decodes about 1.8 times as fast as bf16 in the simulator.
    const double ratio = judged[0]["comparison"]["ratio"].get<double>();
    QVERIFY2(ratio > 1.2 && ratio < 2.5, std::to_string(ratio).c_str());
    const std::string said = judged[0]["statement"];
    QVERIFY2(said.rfind("fp8/bf16 c1 median_decode_tok_s ", 0) == 0, said.c_str());
    for (const auto& b : summary["run"]["blockers"])
      QVERIFY2(!text_contains(b.get<std::string>(), "no phase was measured"),
               b.get<std::string>().c_str());
    // A passing gate is no blocker; any other outcome makes the run exit 1.
    QCOMPARE(r.exit_code, judged[0]["outcome"] == "pass" ? 0 : 1);
    fs::remove_all(dir);
  }

  void managedLaneAddedIntoAnExistingRun() {
    const auto dir = fresh_dir("lb-managed-into");
    fs::create_directories(dir);
    json first = small_throughput();
    first["concurrency"] = {1};
    first["name"] = "plain";
    const json plain = {{"name", "plain run"},
                        {"lanes", {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.05"}}}},
                        {"experiments", {first}}};
    const auto r1 = run_program(cli_path(), {"run", qstr(write_plan_file(dir / "p1.json", plain)),
                                             "--out", qstr(dir / "run")});
    QVERIFY2(r1.exit_code == 0, r1.err.c_str());
    json second = small_throughput();
    second["concurrency"] = {1};
    second["name"] = "managed";
    const json added = {{"name", "added"},
                        {"lanes", {managed_lane("fp8", sim_launch("fp8"))}},
                        {"experiments", {second}}};
    const std::string p2 = write_plan_file(dir / "p2.json", added);
    // Without --allow-launch nothing starts and the run is left as it was.
    const auto refused = run_program(cli_path(), {"run", qstr(p2), "--into", qstr(dir / "run")});
    QCOMPARE(refused.exit_code, 2);
    QVERIFY2(text_contains(refused.err, "--allow-launch"), refused.err.c_str());
    QCOMPARE(read_json(dir / "run" / "summary.json")["experiments"].size(), size_t(1));
    const auto r2 =
        run_program(cli_path(), {"run", qstr(p2), "--into", qstr(dir / "run"), "--allow-launch"});
    QVERIFY2(r2.exit_code == 0, r2.err.c_str());
    const json summary = read_json(dir / "run" / "summary.json");
    QCOMPARE(summary["experiments"].size(), size_t(2));
    QCOMPARE(summary["experiments"][1]["name"].get<std::string>(), std::string("managed"));
    QCOMPARE(summary["experiments"][1]["lanes"]["fp8"]["phases"]["c1"]["completed"].get<int>(), 8);
    QCOMPARE(summary["servers"]["fp8"]["status"].get<std::string>(), std::string("stopped"));
    QVERIFY(process_group_gone(summary["servers"]["fp8"]["pid"].get<pid_t>()));
    QVERIFY(fs::exists(dir / "run" / "servers" / "fp8.log"));
    // environment.json keeps the first lane, gains the managed one and records the addition.
    const json env = read_json(dir / "run" / "environment.json");
    QVERIFY2(env["lanes"].contains("bf16") && env["lanes"].contains("fp8"), env.dump().c_str());
    QCOMPARE(env["additions"].size(), size_t(1));
    const json plan = read_json(dir / "run" / "plan.json");
    QCOMPARE(plan["lanes"].size(), size_t(2));
    QVERIFY(plan["lanes"][1].contains("launch"));
    // A sweep still goes into a new run folder only.
    json sweep = added;
    sweep["sweep"] = {{"lane", "fp8"}, {"parameter", "max_num_seqs"}, {"values", {4, 8}}};
    const auto r3 = run_program(cli_path(), {"run", qstr(write_plan_file(dir / "p3.json", sweep)),
                                             "--into", qstr(dir / "run"), "--allow-launch"});
    QCOMPARE(r3.exit_code, 2);
    QVERIFY2(text_contains(r3.err, "a plan with a sweep runs into a new run folder only"),
             r3.err.c_str());
    fs::remove_all(dir);
  }

  void serverIgnoringSigtermIsKilledWithItsGroup() {
    const auto dir = fresh_dir("lb-managed-stubborn");
    fs::create_directories(dir);
    // The shell that leads the group ignores SIGTERM (the simulator it started does stop), so
    // only SIGKILL to the group after the grace period ends it.
    json launch = sim_launch("fp8", 1);
    launch["command"] = {"/bin/sh", "-c",
                         std::string("trap '' TERM; ") + sim_path() +
                             " --profile fp8 --port \"$0\" --time-scale 0.05 & "
                             "while :; do sleep 1; done",
                         "{port}"};
    const json plan = {{"name", "stubborn"},
                       {"lanes", {managed_lane("stubborn", launch)}},
                       {"experiments", {small_throughput()}}};
    const auto r = run_program(cli_path(), {"run", qstr(write_plan_file(dir / "p.json", plan)),
                                            "--out", qstr(dir / "run"), "--allow-launch"});
    QVERIFY2(r.exit_code == 0, r.err.c_str());
    QVERIFY2(text_contains(
                 r.err, "lane stubborn: server ignored SIGTERM for 1 s; killed its process group"),
             r.err.c_str());
    const json summary = read_json(dir / "run" / "summary.json");
    const json& rec = summary["servers"]["stubborn"];
    QCOMPARE(rec["killed_after_grace"].get<bool>(), true);
    QCOMPARE(rec["exit"]["signal"].get<int>(), int(SIGKILL));
    QVERIFY(process_group_gone(rec["pid"].get<pid_t>()));
    fs::remove_all(dir);
  }

  void ctrlCWhileWaitingForReadiness() {
    const auto dir = fresh_dir("lb-managed-ctrlc-wait");
    fs::create_directories(dir);
    json never_ready = sim_launch("fp8", 5);
    never_ready["ready"] = {{"url", "http://127.0.0.1:{port}/not-here"}, {"timeout_s", 120}};
    const json plan = {{"name", "ctrl-c while waiting"},
                       {"lanes", {managed_lane("slow", never_ready)}},
                       {"experiments", {small_throughput()}}};
    QProcess p;
    p.start(qstr(cli_path()), {"run", qstr(write_plan_file(dir / "p.json", plan)), "--out",
                               qstr(dir / "run"), "--allow-launch"});
    QVERIFY(p.waitForStarted());
    std::string err;
    QVERIFY2(wait_for_output(p, err, "lane slow: starting server", 1), err.c_str());
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const auto t0 = std::chrono::steady_clock::now();
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(30'000));
    QCOMPARE(p.exitCode(), 130);
    QVERIFY(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
    const json summary = read_json(dir / "run" / "summary.json");
    const json& rec = summary["servers"]["slow"];
    QCOMPARE(rec["status"].get<std::string>(), std::string("interrupted"));
    QVERIFY(process_group_gone(rec["pid"].get<pid_t>()));
    fs::remove_all(dir);
  }

  void ctrlCStopsTheServer_data() {
    QTest::addColumn<int>("interrupts");
    QTest::newRow("once") << 1;
    QTest::newRow("twice") << 2;
  }
  void ctrlCStopsTheServer() {
    QFETCH(int, interrupts);
    const auto dir = fresh_dir("lb-managed-ctrlc");
    fs::create_directories(dir);
    json long_run = small_throughput();
    long_run["requests"] = 100000;
    long_run["duration_s"] = 120;
    const json plan = {
        {"name", "ctrl-c"},
        {"lanes",
         {managed_lane("a", sim_launch("fp8", 5)), managed_lane("b", sim_launch("fp8", 5))}},
        {"experiments", {long_run}}};
    QProcess p;
    p.start(qstr(cli_path()), {"run", qstr(write_plan_file(dir / "p.json", plan)), "--out",
                               qstr(dir / "run"), "--allow-launch"});
    QVERIFY(p.waitForStarted());
    std::string err;
    QVERIFY2(wait_for_output(p, err, "[a] throughput c1", 1), err.c_str());
    for (int i = 0; i < interrupts; ++i) ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(30'000));
    err += p.readAllStandardError().toStdString();
    QCOMPARE(p.exitCode(), 130);
    const json summary = read_json(dir / "run" / "summary.json");
    const auto pids = server_pids(summary);
    QCOMPARE(pids.size(), size_t(1));  // lane b never started
    QVERIFY2(process_group_gone(pids.front()), err.c_str());
    if (interrupts == 1)
      QCOMPARE(summary["servers"]["a"]["status"].get<std::string>(), std::string("stopped"));
    fs::remove_all(dir);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(CliManagedLanesTest)
#include "app_cli_managed_lanes_test.moc"
