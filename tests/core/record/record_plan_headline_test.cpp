// plan.json at a glance: the golden capacity folder's name, lanes, experiments and SLOs; names
// fall back to kinds; each field of another shape is left out with a problem naming it; a FIFO or
// a file that is not a JSON object is a problem, an absent file is none.
#include <sys/stat.h>

#include <QtTest>
#include <filesystem>
#include <fstream>

#include "core/record/plan_headline.h"
#include "core/record/run_folder_headline.h"
#include "test_main.h"
#include "test_paths.h"

using namespace lb::record;
using nlohmann::json;

namespace {

std::vector<std::string> kinds_of(const PlanHeadline& plan) {
  std::vector<std::string> out;
  for (const PlannedExperiment& e : plan.experiments) out.push_back(e.name + "=" + e.kind);
  return out;
}

}  // namespace

class RecordPlanHeadlineTest : public QObject {
  Q_OBJECT
 private slots:
  void theGoldenCapacityPlanReadsWhole() {
    std::vector<std::string> problems;
    const auto plan = read_plan_headline(lb::test::fixture_path("run_folders/capacity"), &problems);
    QVERIFY(plan.has_value());
    QVERIFY(problems.empty());
    QCOMPARE(plan->name, std::string("golden-capacity"));
    QCOMPARE(plan->lanes, (std::vector<std::string>{"bf16", "fp8", "fp8-mtp"}));
    QCOMPARE(kinds_of(*plan), std::vector<std::string>{"capacity=capacity"});
    QVERIFY(plan->capacity.has_value());
    QCOMPARE(plan->capacity->ttft_p99_ms, 2000.0);
    QCOMPARE(plan->capacity->tpot_p99_ms, -1.0);
    QVERIFY(!plan->capacity->by_rate);
  }

  void namesFallBackToKindsAndTheFirstCapacityCounts() {
    const json doc = json::parse(R"({"experiments": [
        {"kind": "trace"}, {"kind": "throughput", "name": ""}, {"kind": "trace", "name": "replay"},
        {"kind": "capacity", "load": "rate", "slo": {"tpot_p99_ms": 40}},
        {"kind": "capacity", "slo": {"ttft_p99_ms": 1}}]})");
    const PlanHeadline plan = plan_headline_of(doc);
    QCOMPARE(kinds_of(plan),
             (std::vector<std::string>{"trace=trace", "throughput=throughput", "replay=trace",
                                       "capacity=capacity", "capacity=capacity"}));
    QVERIFY(plan.capacity.has_value());
    QVERIFY(plan.capacity->by_rate);
    QCOMPARE(plan.capacity->tpot_p99_ms, 40.0);
    QCOMPARE(plan.capacity->ttft_p99_ms, -1.0);
    QVERIFY(!plan_headline_of(json::parse(R"({"experiments": []})")).capacity.has_value());
  }

  void fieldsOfAnotherShapeAreLeftOutAndNamed() {
    const json doc = json::parse(R"({"name": 7, "lanes": [{"id": "a"}, {"id": 3}, "b"],
        "experiments": {"kind": "trace"}})");
    std::vector<std::string> problems;
    const PlanHeadline plan = plan_headline_of(doc, &problems);
    QCOMPARE(plan.name, std::string());
    QCOMPARE(plan.lanes, std::vector<std::string>{"a"});
    QVERIFY(plan.experiments.empty());
    QCOMPARE(problems, (std::vector<std::string>{"plan.json: name is not a string",
                                                 "plan.json: lanes[1].id is not a string",
                                                 "plan.json: lanes[2].id is not a string",
                                                 "plan.json: experiments is not a list"}));
    QVERIFY(plan_headline_of(json::array({1, 2})).lanes.empty());  // not an object: empty
  }

  void unreadableFilesAreProblemsAndAbsentOnesAreNot() {
    QTemporaryDir dir;
    const std::string root = dir.path().toStdString();
    std::vector<std::string> problems;
    QVERIFY(!read_plan_headline(root, &problems).has_value());
    QVERIFY(problems.empty());

    std::ofstream(root + "/plan.json") << "[1, 2]";
    QVERIFY(!read_plan_headline(root, &problems).has_value());
    QCOMPARE(problems, std::vector<std::string>{"plan.json: not a JSON object"});

    std::filesystem::remove(root + "/plan.json");
    QCOMPARE(::mkfifo((root + "/plan.json").c_str(), 0600), 0);
    problems.clear();
    QVERIFY(!read_plan_headline(root, &problems).has_value());  // returns: never waits on a FIFO
    QCOMPARE(problems.size(), size_t{1});
    QVERIFY2(problems[0].find("FIFO") != std::string::npos, problems[0].c_str());
    QVERIFY(looks_like_run_folder(root));
  }

  void aFolderHeadlineReadsTheGoldenRuns() {
    const RunFolderHeadline run =
        read_run_folder_headline(lb::test::fixture_path("run_folders/regression"));
    QVERIFY2(run.problems.empty(), run.problems.empty() ? "" : run.problems[0].c_str());
    QVERIFY(run.complete);
    QVERIFY(run.has_review);
    QCOMPARE(run.experiments, std::vector<std::string>{"regression"});
    QVERIFY(run.request_lines > 0);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RecordPlanHeadlineTest)
#include "record_plan_headline_test.moc"
