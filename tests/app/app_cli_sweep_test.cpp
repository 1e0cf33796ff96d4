// Sweeps end to end: lanebench-cli run expands a sweep of a managed lane into one lanebench-sim
// server per value (the flag on its command line), runs the same experiment on each next to a
// baseline, and writes the figures against the values with the best one; Ctrl-C in the middle
// of a sweep leaves no server process behind.
#include <signal.h>

#include <QtTest>

#include "test_main.h"

#include "cli_process.h"
#include "managed_plans.h"
#include "run_folder_reader.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace lb::test;

namespace sweep_test {

json sweep_plan(const json& values, const json& experiment) {
  json mtp = sim_launch("fp8-mtp3");
  mtp["command"].push_back("--max-num-batched-tokens");
  mtp["command"].push_back("4096");
  return {
      {"name", "batch-token sweep"},
      {"lanes",
       {{{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.05"}}, managed_lane("mtp", mtp)}},
      {"experiments", {experiment}},
      {"sweep", {{"lane", "mtp"}, {"parameter", "max_num_batched_tokens"}, {"values", values}}},
      {"objective", {{"maximize", "output_throughput"}, {"subject_to", {{"p99_ttft_ms", 1e6}}}}}};
}

std::string point_lane(int value) {
  return "mtp[max_num_batched_tokens=" + std::to_string(value) + "]";
}

}  // namespace sweep_test

using namespace sweep_test;

class CliSweepTest : public QObject {
  Q_OBJECT
 private slots:
  void threeValueSweep() {
    const auto dir = fresh_dir("lb-sweep-three");
    fs::create_directories(dir);
    const json plan = sweep_plan({2048, 4096, 8192}, small_throughput());
    const auto r = run_program(cli_path(), {"run", qstr(write_plan_file(dir / "p.json", plan)),
                                            "--out", qstr(dir / "run"), "--allow-launch"});
    QVERIFY2(r.exit_code == 0, r.err.c_str());
    const json summary = read_json(dir / "run" / "summary.json");
    QCOMPARE(summary["sweeps"].size(), size_t(1));
    const json& axis = summary["sweeps"][0];
    QCOMPARE(axis["parameter"].get<std::string>(), std::string("max_num_batched_tokens"));
    QCOMPARE(axis["points"].size(), size_t(3));
    std::string best_lane;
    double best = -1;
    for (size_t i = 0; i < 3; ++i) {
      const int value = std::vector<int>{2048, 4096, 8192}[i];
      const json& point = axis["points"][i];
      QCOMPARE(point["lane"].get<std::string>(), point_lane(value));
      QCOMPARE(point["value"].get<int>(), value);
      QCOMPARE(point["phase"].get<std::string>(), std::string("c4"));
      const double tput = point["figures"]["output_throughput"].get<double>();
      QVERIFY(tput > 0);
      QVERIFY(point["figures"]["p99_ttft_ms"].get<double>() > 0);
      QVERIFY(point["eligible"].get<bool>());
      if (tput > best) best = tput, best_lane = point["lane"].get<std::string>();
      // Its own server, with the flag replaced (not repeated), stopped cleanly, with its log.
      const json& server = summary["servers"][point_lane(value)];
      const std::string command = server["command"].get<std::string>();
      QVERIFY2(text_contains(command, "--max-num-batched-tokens " + std::to_string(value)),
               command.c_str());
      QVERIFY2(!text_contains(command, "4096") || value == 4096, command.c_str());
      QCOMPARE(server["status"].get<std::string>(), std::string("stopped"));
      QCOMPARE(server["exit"]["exit_code"].get<int>(), 0);
      const std::string log = read_text(dir / "run" / server["log"].get<std::string>());
      QVERIFY2(text_contains(log, "fp8-mtp3 http://127.0.0.1:"), log.c_str());
      QVERIFY2(!text_contains(log, "ignoring arguments"), log.c_str());
      QVERIFY(process_group_gone(server["pid"].get<pid_t>()));
    }
    QCOMPARE(axis["best"]["lane"].get<std::string>(), best_lane);
    QCOMPARE(axis["best"]["value_of_figure"].get<double>(), best);
    // Every point ran the same experiment, in one section next to the baseline.
    const json& section = summary["experiments"][0];
    for (const std::string& lane :
         {std::string("fp8"), point_lane(2048), point_lane(4096), point_lane(8192)})
      QCOMPARE(section["lanes"][lane]["phases"]["c4"]["completed"].get<int>(), 8);
    QVERIFY(section.contains("comparisons"));
    fs::remove_all(dir);
  }

  // A sweep as shards, one value (with its own server) per shard, as a job array runs it: the
  // merged run holds every point's figures and the sweep table, worked out from the shards'
  // lanes as one process works it out, with each point's server record.
  void aSweepRunsAsOneShardPerValue() {
    const auto dir = fresh_dir("lb-sweep-shards");
    fs::create_directories(dir);
    const std::string plan =
        write_plan_file(dir / "p.json", sweep_plan({2048, 4096}, small_throughput()));
    const auto wrong = run_program(cli_path(), {"run", qstr(plan), "--shard", "0/2", "--out",
                                                qstr(dir / "wrong"), "--allow-launch"});
    QCOMPARE(wrong.exit_code, 2);
    QVERIFY2(text_contains(wrong.err, "runs as 3 shards"), wrong.err.c_str());
    QStringList shards;
    for (int i = 0; i < 3; ++i) {
      shards << qstr(dir / ("shard-" + std::to_string(i)));
      const auto r = run_program(cli_path(), {"run", qstr(plan), "--shard", QString("%1/3").arg(i),
                                              "--out", shards.back(), "--allow-launch"});
      QVERIFY2(r.exit_code == 0, r.err.c_str());
    }
    const auto merged = run_program(
        cli_path(), QStringList{"merge"} + shards + QStringList{"--out", qstr(dir / "run")});
    QVERIFY2(merged.exit_code == 0, merged.err.c_str());
    const json summary = read_json(dir / "run" / "summary.json");
    const json& axis = summary["sweeps"][0];
    QCOMPARE(axis["points"].size(), size_t(2));
    std::string best_lane;
    double best = -1;
    for (size_t i = 0; i < 2; ++i) {
      const json& point = axis["points"][i];
      const std::string lane = point_lane(std::vector<int>{2048, 4096}[i]);
      QCOMPARE(point["lane"].get<std::string>(), lane);
      const double tput = point["figures"]["output_throughput"].get<double>();
      // The point's figures are its shard's lane's, whole.
      const json shard = read_json(dir / ("shard-" + std::to_string(i + 1)) / "summary.json");
      QCOMPARE(tput, shard["experiments"][0]["lanes"][lane]["phases"]["c4"]["output_throughput"]
                         .get<double>());
      if (tput > best) best = tput, best_lane = lane;
      QCOMPARE(summary["servers"][lane]["status"].get<std::string>(), std::string("stopped"));
    }
    QCOMPARE(axis["best"]["lane"].get<std::string>(), best_lane);
    QVERIFY(!summary["experiments"][0]["comparisons"].empty());
    fs::remove_all(dir);
  }

  void ctrlCDuringSweepLeavesNoServer() {
    const auto dir = fresh_dir("lb-sweep-stop");
    fs::create_directories(dir);
    json long_run = small_throughput();
    long_run["concurrency"] = {1};
    long_run["requests"] = 100000;
    long_run["duration_s"] = 4;
    const json plan = sweep_plan({2048, 4096, 8192}, long_run);
    QProcess p;
    p.start(qstr(cli_path()), {"run", qstr(write_plan_file(dir / "p.json", plan)), "--out",
                               qstr(dir / "run"), "--allow-launch"});
    QVERIFY(p.waitForStarted());
    std::string err;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!text_contains(err, "[" + point_lane(4096) + "] throughput c1") &&
           std::chrono::steady_clock::now() < deadline && p.state() != QProcess::NotRunning) {
      p.waitForReadyRead(200);
      err += p.readAllStandardError().toStdString();
    }
    QVERIFY2(text_contains(err, "[" + point_lane(4096) + "] throughput c1"), err.c_str());
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(30'000));
    QCOMPARE(p.exitCode(), 130);
    const json summary = read_json(dir / "run" / "summary.json");
    const json& servers = summary["servers"];
    QCOMPARE(servers.size(), size_t(2));  // the third point never started
    for (const auto& record : servers) {
      QCOMPARE(record["status"].get<std::string>(), std::string("stopped"));
      QVERIFY(process_group_gone(record["pid"].get<pid_t>()));
    }
    const json& points = summary["sweeps"][0]["points"];
    QCOMPARE(points[2]["server_status"].get<std::string>(), std::string("not_started"));
    QCOMPARE(points[2]["eligible"].get<bool>(), false);
    fs::remove_all(dir);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(CliSweepTest)
#include "app_cli_sweep_test.moc"
