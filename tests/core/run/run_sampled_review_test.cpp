// The sampled review end to end on simulator lanes over HTTP, over a fixed list of seeds:
// two lanes of one profile come out indistinguishable on every prompt, and a lane with
// flip_facts=1 comes out shifted on exactly the prompts whose fact the simulator flips, with
// their facts lost in a share of its samples and none of the baseline's. Files: every lane's
// samples, sampled.json with every pair, and sampled-review.json waiting for verdicts.
#include <QtTest>

#include <set>

#include "core/compare/sampled_verdicts.h"
#include "core/plan/prompt_set.h"
#include "core/run/plan_runner.h"
#include "sim/answer_book.h"
#include "sim_plan_run.h"
#include "test_main.h"

namespace {

using nlohmann::json;

struct SampledFolder {
  json summary;
  json section;
  json sampled;
  json samples_a, samples_b;
  std::optional<lb::compare::SampledReviewRecord> review;
  lb::run::RunResult result;
};

SampledFolder run_sampled(const std::string& a, const std::string& b, int64_t seed,
                          const std::string& name) {
  lb::test::register_sim_starter();
  const json exp = {{"kind", "sampled_regression"},
                    {"samples", 16},
                    {"temperature", 0.8},
                    {"seed", seed},
                    {"concurrency", 8}};
  const json plan = {
      {"name", "sampled"},
      {"lanes", {{{"id", "base"}, {"base_url", a}}, {{"id", "cand"}, {"base_url", b}}}},
      {"experiments", {exp}}};
  auto parsed = lb::plan::parse_plan(plan.dump(), "test-plan.json");
  if (!parsed.ok()) qFatal("plan rejected: %s", parsed.error_text().c_str());
  const auto dir = lb::test::fresh_dir(name);
  auto sink = std::make_shared<lb::test::CollectingSink>();
  std::atomic<bool> stop{false};
  lb::run::PlanRunner runner(*parsed.plan, {dir.string(), "test", false}, *sink);
  SampledFolder f;
  f.result = runner.run(stop);
  f.summary = lb::test::read_json(dir / "summary.json");
  for (const auto& e : f.summary["experiments"])
    if (e.value("kind", "") == "sampled_regression") f.section = e;
  f.sampled = lb::test::read_json(dir / "sampled.json");
  f.samples_a = lb::test::read_json(dir / "texts" / "base.samples.json");
  f.samples_b = lb::test::read_json(dir / "texts" / "cand.samples.json");
  std::string error;
  f.review = lb::compare::load_sampled_review((dir / "sampled-review.json").string(), &error);
  std::filesystem::remove_all(dir);
  return f;
}

const std::vector<int64_t> kSampledSeeds = {0, 1000};

}  // namespace

class TestSampledReview : public QObject {
  Q_OBJECT
 private slots:
  void twoLanesOfOneProfileAreIndistinguishable() {
    for (const char* profile : {"bf16", "fp8"})
      for (int64_t seed : kSampledSeeds) {
        const std::string lane = std::string("sim:") + profile + "?time_scale=0.002";
        const SampledFolder f = run_sampled(lane, lane, seed, "lb-sampled-aa");
        QVERIFY2(!f.section.is_null(), "no sampled_regression section");
        const json& c = f.section["comparisons"][0];
        QCOMPARE(c["prompts"].size(), size_t{20});
        QCOMPARE(c["shifted"].get<int>(), 0);
        QCOMPARE(c["indistinguishable"].get<int>(), 20);
        QCOMPARE(c["test"]["fdr"].get<double>(), 0.05);
        // Sampled for real: the samples of a prompt are not all one text.
        int varied = 0;
        for (const auto& prompt : f.samples_a) {
          QCOMPARE(prompt.size(), size_t{16});
          varied += std::set<std::string>(prompt.begin(), prompt.end()).size() > 1 ? 1 : 0;
        }
        QVERIFY2(varied >= 8, qPrintable(QString::number(varied)));
        // One seed, one sample: the same profile says the same thing.
        QCOMPARE(f.samples_a, f.samples_b);
        QCOMPARE(f.section["lanes"]["cand"]["seed_sent"].get<bool>(), true);
        QCOMPARE(f.section["lanes"]["cand"]["failed_samples"].get<int>(), 0);
        QCOMPARE(f.result.exit_code, 0);
      }
  }

  void flippedFactsAreShiftedWithTheirLossRate() {
    const auto set = lb::plan::load_prompt_set("builtin:regression-20");
    QVERIFY(set.ok());
    lb::sim::AnswerContext fp8;
    fp8.weights_dtype = "fp8";
    fp8.flip_facts = true;
    std::set<std::string> flipped;
    for (const auto& p : set.set->prompts)
      if (lb::sim::AnswerBook::drift_kind(p.id, fp8) == lb::sim::DriftKind::FlippedFact)
        flipped.insert(p.id);
    QVERIFY(flipped.size() >= 3);
    for (int64_t seed : kSampledSeeds) {
      const SampledFolder f =
          run_sampled("sim:fp8?time_scale=0.002", "sim:fp8?time_scale=0.002&flip_facts=1", seed,
                      "lb-sampled-flip");
      const json& c = f.section["comparisons"][0];
      std::set<std::string> shifted;
      for (const auto& p : c["prompts"]) {
        const std::string id = p["id"];
        if (p["result"] == "shifted") shifted.insert(id);
        if (!p.contains("fact_lost")) continue;
        const int lost_base = p["fact_lost"]["base"]["lost"].get<int>();
        const int lost_cand = p["fact_lost"]["cand"]["lost"].get<int>();
        QCOMPARE(lost_base, 0);
        if (flipped.count(id)) {
          // Most of the flipped lane's mass sits on the changed fact.
          QVERIFY2(lost_cand >= 4, qPrintable(QString::fromStdString(id)));
          QVERIFY(p["fact_lost"]["cand"]["lo"].get<double>() > 0);
          QVERIFY(p["fact_loss_text"].get<std::string>().find("/16 cand samples vs 0/16 base") !=
                  std::string::npos);
        } else {
          QCOMPARE(lost_cand, 0);
        }
      }
      QCOMPARE(shifted, flipped);
      QCOMPARE(f.result.exit_code, 1);  // a shifted prompt that loses its fact blocks
      QCOMPARE(c["shifted"].get<size_t>(), flipped.size());
      // sampled.json carries every pair; the review record waits for a verdict on each shift.
      const json& first = f.sampled["prompts"][0];
      QCOMPARE(first["pairs"]["cross"].size(), size_t{256});
      QCOMPARE(first["pairs"]["within_a"].size(), size_t{120});
      QVERIFY(f.review.has_value());
      QCOMPARE(f.review->outcome().shifted, flipped.size());
      QCOMPARE(f.review->outcome().unreviewed, flipped.size());
    }
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestSampledReview)
#include "run_sampled_review_test.moc"
