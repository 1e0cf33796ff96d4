// Adding experiments to a finished run (RunOptions::append, `lanebench-cli run --into`): the
// run keeps its earlier experiments, requests and first metrics snapshots, gains the new lanes
// and experiments in plan.json, summary.json and environment.json, renames a taken experiment
// name, and refuses a folder that is not a run or a lane id that names another server.
#include <QtTest>

#include <fstream>

#include "test_main.h"

#include "sim_plan_run.h"

namespace {

using lb::test::read_json;
using lb::test::read_jsonl;
using lb::test::read_text;

nlohmann::json sim_lane(const std::string& id, const std::string& profile) {
  return {{"id", id}, {"base_url", "sim:" + profile + "?time_scale=0.02"}};
}

nlohmann::json throughput(int requests) {
  return {{"kind", "throughput"},
          {"concurrency", {1}},
          {"requests", requests},
          {"output_tokens", 8},
          {"input_tokens", 64}};
}

lb::run::RunResult run_plan(const nlohmann::json& plan_json, const std::filesystem::path& dir,
                            bool append, lb::test::CollectingSink& sink) {
  lb::test::register_sim_starter();
  auto parsed = lb::plan::parse_plan(plan_json.dump(), "test-plan.json");
  if (!parsed.ok()) qFatal("plan rejected: %s", parsed.error_text().c_str());
  lb::run::RunOptions options{dir.string(), "test", false};
  options.append = append;
  std::atomic<bool> stop{false};
  lb::run::PlanRunner runner(*parsed.plan, options, sink);
  return runner.run(stop);
}

std::vector<std::string> names_of(const nlohmann::json& list, const char* key) {
  std::vector<std::string> out;
  for (const auto& item : list) out.push_back(item.value(key, ""));
  return out;
}

}  // namespace

class TestRunAppend : public QObject {
  Q_OBJECT
 private slots:
  void addsExperimentsAndLanesToTheRun() {
    const auto dir = lb::test::fresh_dir("run-append");
    lb::test::CollectingSink sink;
    const nlohmann::json first = {{"name", "qualification"},
                                  {"lanes", {sim_lane("bf16", "bf16"), sim_lane("fp8", "fp8")}},
                                  {"experiments", {throughput(3)}}};
    QCOMPARE(run_plan(first, dir, false, sink).exit_code, lb::run::kExitOk);
    const std::string before_prom = read_text(dir / "metrics/fp8.before.prom");
    QVERIFY(!before_prom.empty());
    const auto first_summary = read_json(dir / "summary.json");

    const nlohmann::json second = {{"name", "more"},
                                   {"lanes", {sim_lane("fp8", "fp8"), sim_lane("mtp", "fp8-mtp3")}},
                                   {"experiments", {throughput(2)}}};
    const auto result = run_plan(second, dir, true, sink);
    QCOMPARE(result.exit_code, lb::run::kExitOk);
    QVERIFY(sink.has_message_containing("this one is throughput-2"));
    // The live views hear the name before its first request does.
    QCOMPARE(sink.experiment_names, std::vector<std::string>{"throughput-2"});

    const auto summary = read_json(dir / "summary.json");
    QCOMPARE(summary["run"]["name"], first_summary["run"]["name"]);
    QCOMPARE(summary["run"]["started_at"], first_summary["run"]["started_at"]);
    QCOMPARE(summary["experiments"][0], first_summary["experiments"][0]);
    QCOMPARE(names_of(summary["experiments"], "name"),
             (std::vector<std::string>{"throughput", "throughput-2"}));
    QVERIFY(summary["experiments"][1]["lanes"].contains("mtp"));
    QVERIFY(!summary["experiments"][1]["lanes"].contains("bf16"));

    const auto plan = read_json(dir / "plan.json");
    QCOMPARE(names_of(plan["lanes"], "id"), (std::vector<std::string>{"bf16", "fp8", "mtp"}));
    QCOMPARE(names_of(plan["experiments"], "name"),
             (std::vector<std::string>{"throughput", "throughput-2"}));
    // The written plan.json still reads as a plan.
    QVERIFY(lb::plan::parse_plan(plan.dump(), "plan.json").ok());

    const auto environment = read_json(dir / "environment.json");
    QVERIFY(environment["lanes"].contains("mtp"));
    QCOMPARE(environment["additions"].size(), size_t{1});
    QCOMPARE(environment["additions"][0]["experiments"][0], "throughput-2");

    // Every request of both experiments is kept: 3 per lane, then 2 per lane (plus warm-ups).
    std::map<std::string, int> measured;
    for (const auto& r : read_jsonl(dir / "requests.jsonl"))
      if (!r.value("warmup", false)) ++measured[r["experiment"].get<std::string>()];
    QCOMPARE(measured["throughput"], 6);
    QCOMPARE(measured["throughput-2"], 4);
    // The lane's first snapshot of the run is its own, not the added experiment's.
    QCOMPARE(read_text(dir / "metrics/fp8.before.prom"), before_prom);
    QVERIFY(std::filesystem::exists(dir / "metrics/mtp.throughput-2.before.prom"));
    std::filesystem::remove_all(dir);
  }

  void refusesWhatItCannotAddTo() {
    lb::test::CollectingSink sink;
    const nlohmann::json plan = {
        {"name", "x"}, {"lanes", {sim_lane("fp8", "fp8")}}, {"experiments", {throughput(1)}}};
    const auto missing = lb::test::fresh_dir("run-append-missing");
    auto result = run_plan(plan, missing, true, sink);
    QCOMPARE(result.exit_code, lb::run::kExitInput);
    QVERIFY(result.errors.at(0).find("is not a run folder") != std::string::npos);

    const auto empty = lb::test::fresh_dir("run-append-empty");
    std::filesystem::create_directories(empty);
    result = run_plan(plan, empty, true, sink);
    QCOMPARE(result.exit_code, lb::run::kExitInput);
    QVERIFY(result.errors.at(0).find("plan.json is missing") != std::string::npos);
    QVERIFY(std::filesystem::is_empty(empty));

    const auto dir = lb::test::fresh_dir("run-append-lanes");
    QCOMPARE(run_plan(plan, dir, false, sink).exit_code, lb::run::kExitOk);
    const std::string summary_before = read_text(dir / "summary.json");
    const nlohmann::json other = {
        {"name", "x"}, {"lanes", {sim_lane("fp8", "bf16")}}, {"experiments", {throughput(1)}}};
    result = run_plan(other, dir, true, sink);
    QCOMPARE(result.exit_code, lb::run::kExitInput);
    QVERIFY(result.errors.at(0).find("lane fp8 of this run") != std::string::npos);
    QCOMPARE(read_text(dir / "summary.json"), summary_before);
    std::filesystem::remove_all(dir);
    std::filesystem::remove_all(empty);
  }

  // A second regression would overwrite the first's texts/ and review.json.
  void refusesASecondRegression() {
    lb::test::CollectingSink sink;
    const nlohmann::json plan = {{"name", "x"},
                                 {"lanes", {sim_lane("bf16", "bf16"), sim_lane("fp8", "fp8")}},
                                 {"experiments", {{{"kind", "regression"}}}}};
    const auto dir = lb::test::fresh_dir("run-append-regression");
    QCOMPARE(run_plan(plan, dir, false, sink).exit_code, lb::run::kExitOk);
    const std::string review_before = read_text(dir / "review.json");
    QVERIFY(!review_before.empty());
    const auto result = run_plan(plan, dir, true, sink);
    QCOMPARE(result.exit_code, lb::run::kExitInput);
    QVERIFY2(result.errors.at(0).find("already has a regression") != std::string::npos,
             result.errors.at(0).c_str());
    QCOMPARE(read_text(dir / "review.json"), review_before);
    std::filesystem::remove_all(dir);
  }

  // Issue 36, case 6: a shared run whose requests.jsonl links to ~/.bashrc; `run --into` it
  // must not append request lines there.
  void runIntoALinkedRequestsFileCannotAppendThroughIt() {
    lb::test::CollectingSink sink;
    const nlohmann::json plan = {
        {"name", "x"}, {"lanes", {sim_lane("fp8", "fp8")}}, {"experiments", {throughput(1)}}};
    const auto dir = lb::test::fresh_dir("run-append-linked");
    QCOMPARE(run_plan(plan, dir, false, sink).exit_code, lb::run::kExitOk);
    const auto bashrc = lb::test::fresh_dir("run-append-bashrc");
    std::ofstream(bashrc) << "alias ls='ls --color'\n";
    std::filesystem::remove(dir / "requests.jsonl");
    std::filesystem::create_symlink(bashrc, dir / "requests.jsonl");
    const auto result = run_plan(plan, dir, true, sink);
    QVERIFY(result.exit_code != lb::run::kExitOk);
    QVERIFY(!result.errors.empty());
    QVERIFY2(result.errors.at(0).find("requests.jsonl") != std::string::npos,
             result.errors.at(0).c_str());
    QCOMPARE(read_text(bashrc), std::string("alias ls='ls --color'\n"));
    std::filesystem::remove_all(dir);
    std::filesystem::remove(bashrc);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestRunAppend)
#include "run_append_test.moc"
