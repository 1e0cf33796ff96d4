// plan.json at a glance: the golden capacity folder's name, lanes, experiments and SLOs; names
// fall back to kinds; each field of another shape is left out with a problem naming it; a FIFO or
// a file that is not a JSON object is a problem, an absent file is none.
#include <sys/stat.h>

#include <QtTest>
#include <filesystem>
#include <fstream>

#include "core/record/environment_record.h"
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

  // Each lane's endpoint, key source and notes, for the report's lane table and its scrubber;
  // notes of any scalar type read as text, a lane without an id is left out. (URLs are written
  // with JSON's "\/": moc reads a double slash in a raw string as a comment.)
  void lanesKeepTheirEndpointKeySourceAndNotes() {
    const json doc = json::parse(R"({"lanes": [
        {"id": "fp8", "base_url": "https:\/\/gpu:8000", "api_key_env": "FP8_KEY",
         "notes": {"weights": "FP8", "tp": 2, "prefix_caching": true, "ratio": 0.5}},
        {"base_url": "sim:bf16"},
        {"id": "bf16", "base_url": 7, "notes": "not an object"}]})");
    const PlanHeadline plan = plan_headline_of(doc);
    QCOMPARE(plan.lane_details.size(), size_t(2));
    const PlannedLane& fp8 = plan.lane_details[0];
    QCOMPARE(fp8.base_url, std::string("https://gpu:8000"));
    QCOMPARE(fp8.api_key_env, std::string("FP8_KEY"));
    QVERIFY(fp8.notes.has_value());
    QCOMPARE(*fp8.notes,
             (std::vector<std::pair<std::string, std::string>>{
                 {"prefix_caching", "yes"}, {"ratio", "0.50"}, {"tp", "2"}, {"weights", "FP8"}}));
    QCOMPARE(plan.lane_details[1].id, std::string("bf16"));
    QVERIFY(plan.lane_details[1].base_url.empty() && !plan.lane_details[1].notes);
  }

  // environment.json: what each lane's server said about itself, read tolerantly.
  void environmentReadsAsTypes() {
    const json doc = json::parse(R"({"client": {"version": "1.2"}, "lanes": {
        "fp8": {"base_url": "sim:fp8", "served_at": "http:\/\/127.0.0.1:4000", "model": "m",
                "probe": {"server_kind": "vllm", "version": {"version": "0.11"},
                          "max_context_tokens": 32768, "metrics_available": false},
                "tls": {"verification": "DISABLED, insecure"},
                "cache_config": {"block_size": 16, "cache_dtype": "fp8"},
                "notes": {"kv_cache": "fp8"}},
        "odd": {"probe": {"version": {"version": 3}, "metrics_available": "no"},
                "cache_config": [1], "tls": 5},
        "none": 4}})");
    const EnvironmentRecord env = read_environment(doc);
    QCOMPARE(env.client_version, std::string("1.2"));
    const LaneEnvironmentRecord* fp8 = env.lane("fp8");
    QVERIFY(fp8);
    QCOMPARE(fp8->served_at, std::string("http://127.0.0.1:4000"));
    QCOMPARE(fp8->server_version, std::string("0.11"));
    QCOMPARE(fp8->max_context_tokens, 32768.0);
    QCOMPARE(fp8->metrics_available, std::optional<bool>(false));
    QCOMPARE(fp8->tls_verification, std::string("DISABLED, insecure"));
    QCOMPARE(fp8->cache_config.size(), size_t(2));
    QCOMPARE(fp8->cache_config[0], (std::pair<std::string, std::string>{"block_size", "16"}));
    QVERIFY(fp8->notes && fp8->notes->size() == 1);
    const LaneEnvironmentRecord* odd = env.lane("odd");
    QVERIFY(odd);
    QCOMPARE(odd->server_version, std::string("3"));
    QVERIFY(!odd->metrics_available && odd->cache_config.empty() && odd->tls_verification.empty());
    QVERIFY(env.lane("none") && env.lane("none")->model.empty());
    QVERIFY(!env.lane("bf16"));
    QVERIFY(read_environment(json::array()).lanes.empty());
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
