// A regression on a multimodal prompt set with a text-only lane: the lane's API refuses every
// image and video prompt with vLLM's 400. Its empty answers are no answers: each pair is
// "unsupported by the lane", never a divergence or a flipped fact, and the run has no blocker.
#include <QtTest>

#include "test_main.h"

#include "core/compare/review_record.h"
#include "core/record/run_summary.h"
#include "core/report/gate_table.h"
#include "sim_plan_run.h"

namespace {

nlohmann::json refusal_plan() {
  return {{"name", "text-only candidate"},
          {"lanes",
           {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.01"}},
            {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.01"}}}},
          {"experiments",
           {{{"kind", "regression"},
             {"prompts", "builtin:multimodal-30"},
             {"max_tokens", 64},
             {"logprobs", 0}}}}};
}

}  // namespace

// The summary as the gate table reads it: through the record.
static lb::record::RunSummary media_record(const nlohmann::json& summary) {
  lb::record::FileFields fields("summary.json");
  return lb::record::read_run_summary(summary, fields);
}

class RunMediaRefusalTest : public QObject {
  Q_OBJECT
 private slots:
  void a_refused_medium_is_unsupported_by_the_lane_not_a_flipped_fact() {
    lb::test::register_sim_starter();
    auto parsed = lb::plan::parse_plan(refusal_plan().dump(), "test-plan.json");
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    const auto dir = lb::test::fresh_dir("lb-media-refusal");
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    lb::run::PlanRunner runner(*parsed.plan, {dir.string(), "test", false}, sink);
    const lb::run::RunResult result = runner.run(stop);
    const nlohmann::json summary = lb::test::read_json(dir / "summary.json");
    nlohmann::json regression;
    for (const auto& e : summary["experiments"])
      if (e["kind"] == "regression") regression = e;
    QVERIFY2(regression.contains("comparisons"), regression.dump().c_str());
    const nlohmann::json& c = regression["comparisons"][0];
    QCOMPARE(c["unsupported_by_lane"].get<int>(), 30);
    QVERIFY2(c["flipped_facts"].empty(), c["flipped_facts"].dump().c_str());
    QCOMPARE(c["review_required"].get<int>(), 0);
    QVERIFY(!sink.has_message_containing("flips"));
    QCOMPARE(result.exit_code, lb::run::kExitOk);

    std::string error;
    const auto review = lb::compare::load_review((dir / "review.json").string(), &error);
    QVERIFY2(review, error.c_str());
    for (const auto& p : review->pairs) {
      QCOMPARE(p.comparison.unsupported_by, std::vector<std::string>{"fp8"});
      QVERIFY(!p.comparison.blocker_candidate());
      QVERIFY(!p.comparison.review_required());
    }
    QVERIFY(review->outcome().passed);

    const auto table = lb::report::build_gate_table(media_record(summary), {"bf16", "fp8"});
    const lb::report::GateCell& cell = table.rows.at(0).cells.at(1);
    QVERIFY(cell.status != lb::report::GateStatus::Fail);
    QVERIFY2(cell.detail.find("30 prompt(s) unsupported by the lane") != std::string::npos,
             cell.detail.c_str());
    std::filesystem::remove_all(dir);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RunMediaRefusalTest)
#include "run_media_refusal_test.moc"
