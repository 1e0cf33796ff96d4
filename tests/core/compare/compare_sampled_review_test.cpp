// The sampled review's statistics: Benjamini–Hochberg, Wilson intervals, the permutation test
// on within- and cross-lane similarity, fact loss per sample, and the JSON it writes.
#include <QtTest>

#include "test_main.h"

#include <nlohmann/json.hpp>

#include "core/compare/sampled_review.h"
#include "core/compare/sampled_verdicts.h"

using namespace lb::compare;

namespace {

lb::plan::PromptSet train_set(size_t prompts) {
  lb::plan::PromptSet set;
  set.name = "test-set";
  for (size_t i = 0; i < prompts; ++i) {
    lb::plan::PromptSpec p;
    p.id = "train-" + std::to_string(i);
    lb::plan::FactCheck c;
    c.type = lb::plan::CheckType::Numeric;
    c.number = 165;
    p.checks = {c};
    set.prompts.push_back(p);
  }
  return set;
}

// n samples around one answer: a few wordings and closing sentences, as a sampler gives.
PromptSamples samples(const std::string& minutes, size_t n, size_t offset = 0) {
  static const char* kOpen[] = {"The journey takes ", "It takes ", "The trip lasts ",
                                "Travel time is "};
  static const char* kTail[] = {"", " That is the whole trip.", " Both times are the same day.",
                                " Count from departure to arrival.", " No stops change that."};
  PromptSamples s;
  for (size_t k = 0; k < n; ++k) {
    const size_t r = k + offset;
    s.texts.push_back(std::string(kOpen[r % 4]) + minutes + " minutes." + kTail[(r * 3) % 5]);
  }
  return s;
}

}  // namespace

class SampledReviewTest : public QObject {
  Q_OBJECT
 private slots:
  void benjaminiHochbergMatchesTheStepUpRule() {
    // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") = 0.02 0.04 0.04 0.02
    const auto q = benjamini_hochberg({0.01, 0.04, 0.03, 0.005});
    QCOMPARE(q.size(), size_t{4});
    QVERIFY(qAbs(q[0] - 0.02) < 1e-12);
    QVERIFY(qAbs(q[1] - 0.04) < 1e-12);
    QVERIFY(qAbs(q[2] - 0.04) < 1e-12);
    QVERIFY(qAbs(q[3] - 0.02) < 1e-12);
    const auto capped = benjamini_hochberg({0.9, 0.8});
    QVERIFY(capped[0] <= 1.0 && capped[1] <= capped[0]);
    QVERIFY(benjamini_hochberg({}).empty());
  }

  void wilsonIntervalsMatchTheFormula() {
    const auto p = wilson_interval(3, 16);
    QVERIFY(qAbs(p.rate - 0.1875) < 1e-12);
    QVERIFY(qAbs(p.lo - 0.065915990714) < 1e-9);
    QVERIFY(qAbs(p.hi - 0.430088809620) < 1e-9);
    const auto none = wilson_interval(0, 16);
    QCOMPARE(none.lo, 0.0);
    QVERIFY(qAbs(none.hi - 0.193607680534) < 1e-9);
    const auto all = wilson_interval(16, 16);
    QCOMPARE(all.hi, 1.0);
    const auto empty = wilson_interval(0, 0);
    QCOMPARE(empty.lo, 0.0);
    QCOMPARE(empty.hi, 1.0);
  }

  void sameDistributionIsIndistinguishable() {
    const auto set = train_set(3);
    std::vector<PromptSamples> a, b;
    for (size_t i = 0; i < 3; ++i) {
      a.push_back(samples("165", 16, i));
      b.push_back(samples("165", 16, i + 7));  // other draws of the same sampler
    }
    const auto c = compare_samples("bf16", "bf16b", a, b, &set);
    QCOMPARE(c.prompts.size(), size_t{3});
    for (const auto& p : c.prompts) {
      QCOMPARE(p.result, SampledResult::Indistinguishable);
      QVERIFY2(p.test.p_value > 0.05, qPrintable(QString::number(p.test.p_value)));
      QCOMPARE(p.within_a.size(), size_t{120});
      QCOMPARE(p.within_b.size(), size_t{120});
      QCOMPARE(p.cross.size(), size_t{256});
      QCOMPARE(p.fact_lost_a.count, int64_t{0});
      QCOMPARE(p.fact_lost_b.count, int64_t{0});
    }
    QCOMPARE(c.count(SampledResult::Shifted), int64_t{0});
  }

  void aChangedFactIsShiftedWithItsLossRate() {
    const auto set = train_set(4);
    std::vector<PromptSamples> a, b;
    for (size_t i = 0; i < 4; ++i) a.push_back(samples("165", 16, i));
    b = a;
    // Prompt 2: 12 of 16 candidate samples give another number.
    for (size_t k = 0; k < 12; ++k) b[2].texts[k] = "Roughly three hours: 175 minutes in all.";
    const auto c = compare_samples("bf16", "fp8", a, b, &set);
    QCOMPARE(c.prompts[2].result, SampledResult::Shifted);
    QVERIFY(c.prompts[2].q_value <= 0.05);
    QVERIFY(c.prompts[2].test.statistic > 0);
    QCOMPARE(c.prompts[2].fact_lost_b.count, int64_t{12});
    QCOMPARE(c.prompts[2].fact_lost_a.count, int64_t{0});
    QCOMPARE(QString::fromStdString(fact_loss_text(c.prompts[2], "bf16", "fp8")),
             QString("fact lost in 12/16 fp8 samples vs 0/16 bf16"));
    for (size_t i : {0, 1, 3}) QCOMPARE(c.prompts[i].result, SampledResult::Indistinguishable);
    QCOMPARE(c.count(SampledResult::Shifted), int64_t{1});
  }

  void resultsAreReproducible() {
    const auto set = train_set(2);
    std::vector<PromptSamples> a = {samples("165", 8), samples("165", 8, 3)};
    std::vector<PromptSamples> b = {samples("175", 8, 1), samples("165", 8, 5)};
    SampledReviewOptions o;
    o.threads = 2;
    const auto first = compare_samples("a", "b", a, b, &set, o);
    o.threads = 1;
    const auto second = compare_samples("a", "b", a, b, &set, o);
    for (size_t i = 0; i < 2; ++i) {
      QCOMPARE(first.prompts[i].test.p_value, second.prompts[i].test.p_value);
      QCOMPARE(first.prompts[i].test.permutations, 1999);
    }
    QVERIFY(first.prompts[0].test.p_value < first.prompts[1].test.p_value);
  }

  void failedSamplesKeepTheirPlaceAndAreLeftOut() {
    const auto set = train_set(2);
    std::vector<PromptSamples> a = {samples("165", 6), samples("165", 6)};
    std::vector<PromptSamples> b = a;
    b[0].failed = {true, false, true, false, false, false};
    b[0].texts[0] = b[0].texts[2] = "";
    b[1].failed = {true, true, true, true, true, false};
    const auto c = compare_samples("a", "b", a, b, &set);
    QCOMPARE(c.prompts[0].samples_b, int64_t{4});
    QCOMPARE(c.prompts[0].within_b.size(), size_t{6});
    for (const auto& p : c.prompts[0].cross) QVERIFY(p.j != 0 && p.j != 2);
    QCOMPARE(c.prompts[0].fact_lost_b.total, int64_t{4});  // an empty failed text is no loss
    QCOMPARE(c.prompts[1].result, SampledResult::Untested);
    QCOMPARE(c.prompts[1].test.permutations, 0);
  }

  void jsonCarriesTheMethodAndEveryPair() {
    const auto set = train_set(1);
    std::vector<PromptSamples> a = {samples("165", 4)};
    std::vector<PromptSamples> b = {samples("175", 4)};
    const auto c = compare_samples("bf16", "fp8", a, b, &set);
    const auto full = sampled_to_json(c);
    QCOMPARE(full["test"]["fdr"].get<double>(), 0.05);
    QCOMPARE(full["test"]["correction"].get<std::string>(), std::string("Benjamini-Hochberg"));
    const auto& p = full["prompts"][0];
    QCOMPARE(p["pairs"]["cross"].size(), size_t{16});
    QCOMPARE(p["pairs"]["within_a"].size(), size_t{6});
    QCOMPARE(p["cross"]["n"].get<int>(), 16);
    const auto& cross = p["cross"];
    QVERIFY(cross["min"].get<double>() <= cross["q1"].get<double>());
    QVERIFY(cross["q1"].get<double>() <= cross["median"].get<double>());
    QVERIFY(cross["median"].get<double>() <= cross["q3"].get<double>());
    QVERIFY(cross["q3"].get<double>() <= cross["max"].get<double>());
    QCOMPARE(p["p_value"].get<double>(), c.prompts[0].test.p_value);
    QCOMPARE(p["fact_lost"]["fp8"]["lost"].get<int>(), 4);
    const auto brief = sampled_summary_json(c);
    QVERIFY(!brief["prompts"][0].contains("pairs"));
    QCOMPARE(brief["prompts"][0]["result"], p["result"]);
  }

  void verdictsWaitOnShiftedPromptsAndRoundTrip() {
    const auto set = train_set(3);
    std::vector<PromptSamples> a = {samples("165", 12), samples("165", 12, 1), samples("165", 12)};
    std::vector<PromptSamples> b = a;
    for (size_t k = 0; k < 10; ++k) b[1].texts[k] = "Roughly three hours: 175 minutes in all.";
    auto record = make_sampled_review(compare_samples("bf16", "fp8", a, b, &set));
    QCOMPARE(record.outcome().shifted, size_t{1});
    QCOMPARE(record.outcome().unreviewed, size_t{1});
    QVERIFY(!record.outcome().passed());
    const auto now = parse_iso8601_utc("2026-12-02T05:00:00Z").value();
    QVERIFY(record.set_verdict(1, Verdict::MaterialDifference, "175 is wrong", now));
    QVERIFY(!record.set_verdict(7, Verdict::Blocker, "", now));
    QVERIFY(record.outcome().passed());
    const auto back =
        sampled_review_from_json(nlohmann::json::parse(sampled_review_to_json(record).dump()));
    QCOMPARE(back.prompts.size(), size_t{3});
    QCOMPARE(back.prompts[1].verdict, Verdict::MaterialDifference);
    QCOMPARE(back.prompts[1].note, std::string("175 is wrong"));
    QVERIFY(back.prompts[1].reviewed_at == now);
    QCOMPARE(back.prompts[0].result, std::string("indistinguishable"));
    QVERIFY(back.outcome().passed());
    record.set_verdict(0, Verdict::Blocker, "", now);
    QVERIFY(!record.outcome().passed());
    bool threw = false;
    try {
      sampled_review_from_json(nlohmann::json{{"format", "lanebench.review/1"}});
    } catch (const std::runtime_error& e) {
      threw = std::string(e.what()).find("format") != std::string::npos;
    }
    QVERIFY(threw);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SampledReviewTest)
#include "compare_sampled_review_test.moc"
