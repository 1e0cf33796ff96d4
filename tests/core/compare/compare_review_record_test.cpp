// review.json: verdicts, the passing rule, atomic save, and a faithful round trip.
#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/compare/review_record.h"

using namespace lb::compare;

namespace {
lb::plan::PromptSpec train_prompt() {
  lb::plan::PromptSpec p;
  p.id = "train";
  lb::plan::FactCheck c;
  c.type = lb::plan::CheckType::Numeric;
  c.number = 165;
  p.checks = {c};
  return p;
}

ReviewRecord sample_record() {
  const auto prompt = train_prompt();
  std::vector<PairComparison> pairs{
      compare_pair(0, "165 minutes", "165 minutes", &prompt, 0.95),
      compare_pair(1, "It takes 165 minutes.", "It takes 165 minutes!", &prompt, 0.9),
      compare_pair(2, "It takes 165 minutes.", "Roughly three hours: 175 minutes.", &prompt, 0.95),
      compare_pair(3, "165.", "The trip is 165 minutes long, give or take.", &prompt, 0.95)};
  return make_review("bf16", "fp8", "builtin:regression-20", 0.95, std::move(pairs));
}

SystemTime at(const char* iso) { return parse_iso8601_utc(iso).value(); }
}  // namespace

class ReviewRecordTest : public QObject {
  Q_OBJECT

 private slots:
  void identicalPairsAreSettledOthersAwaitReview() {
    const auto r = sample_record();
    QCOMPARE(r.pairs[0].verdict, Verdict::Identical);
    QCOMPARE(r.pairs[1].verdict, Verdict::Unreviewed);
    QVERIFY(!r.pairs[1].comparison.review_required());  // near-identical, no flipped fact
    QVERIFY(r.pairs[2].comparison.blocker_candidate());
    QVERIFY(r.pairs[3].comparison.review_required());  // divergent
    const auto outcome = r.outcome();
    QVERIFY(!outcome.passed);
    QCOMPARE(outcome.unreviewed_required, std::size_t(2));
    QCOMPARE(outcome.blockers, std::size_t(0));
  }

  void passesOnlyWithoutBlockersAndUnreviewedDivergentPairs() {
    auto r = sample_record();
    QVERIFY(r.set_verdict(3, Verdict::BenignDrift, "same answer, more words",
                          at("2026-11-29T21:00:00Z")));
    QVERIFY(!r.outcome().passed);
    QVERIFY(r.set_verdict(2, Verdict::Blocker, "175 is wrong", at("2026-11-29T21:01:00Z")));
    QCOMPARE(r.outcome().blockers, std::size_t(1));
    QVERIFY(!r.outcome().passed);
    QVERIFY(r.set_verdict(2, Verdict::MaterialDifference, "", at("2026-11-29T21:02:00Z")));
    QVERIFY(r.outcome().passed);
    QVERIFY(!r.set_verdict(9, Verdict::BenignDrift, "", at("2026-11-29T21:02:00Z")));
  }

  void iso8601Utc() {
    const auto t = at("2026-11-29T21:45:59Z");
    QCOMPARE(format_iso8601_utc(t), std::string("2026-11-29T21:45:59Z"));
    QVERIFY(!parse_iso8601_utc("2026-11-29 21:45:59"));
    QVERIFY(!parse_iso8601_utc("2026-11-29T21:45:59+01:00"));
    // Out-of-range fields and years the clock cannot hold are refused, not overflowed (a year
    // 1000 in a decision.json from elsewhere did, found by fuzz_run_folder).
    for (const char* bad : {"1000-01-01T00:00:00Z", "-999-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
                            "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-01-32T00:00:00Z",
                            "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z"})
      QVERIFY2(!parse_iso8601_utc(bad), bad);
    QCOMPARE(format_iso8601_utc(at("2261-12-31T23:59:59Z")), std::string("2261-12-31T23:59:59Z"));
    QCOMPARE(format_iso8601_utc(at("1970-01-01T00:00:00Z")), std::string("1970-01-01T00:00:00Z"));
  }

  void saveIsAtomicAndRoundTrips() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("review.json").toStdString();
    auto r = sample_record();
    r.set_verdict(3, Verdict::BenignDrift, "wording \"only\"", at("2026-11-29T21:00:00Z"));
    std::string error;
    QVERIFY2(save_review(r, path, &error), error.c_str());
    QVERIFY(!std::filesystem::exists(path + ".tmp"));
    const auto loaded = load_review(path, &error);
    QVERIFY2(loaded.has_value(), error.c_str());
    QCOMPARE(review_to_json(*loaded).dump(), review_to_json(r).dump());
    const auto j = review_to_json(*loaded);
    QCOMPARE(j["pairs"][3]["reviewed_at"].get<std::string>(), std::string("2026-11-29T21:00:00Z"));
    QCOMPARE(j["pairs"][2]["flipped_checks"], nlohmann::json::array({0}));
    QCOMPARE(j["pairs"][2]["changed_numbers"][0]["label"].get<std::string>(),
             std::string("165 \u2192 175"));
    QCOMPARE(j["pairs"][1]["ratio"].get<double>(), r.pairs[1].comparison.triage.ratio);
    QCOMPARE(j["outcome"]["passed"].get<bool>(), false);
  }

  void carriesOverVerdictsOfUnchangedPairs() {
    auto previous = sample_record();
    previous.set_verdict(3, Verdict::BenignDrift, "ok", at("2026-11-29T21:00:00Z"));
    previous.set_verdict(2, Verdict::Blocker, "wrong", at("2026-11-29T21:00:00Z"));
    auto fresh = sample_record();
    fresh.pairs[2].comparison.triage.ratio = 0.5;  // that pair's outputs changed since
    carry_over_verdicts(fresh, previous);
    QCOMPARE(fresh.pairs[3].verdict, Verdict::BenignDrift);
    QCOMPARE(fresh.pairs[3].note, std::string("ok"));
    QCOMPARE(fresh.pairs[2].verdict, Verdict::Unreviewed);
  }

  void loadErrorsNameThePath() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("review.json").toStdString();
    auto j = review_to_json(sample_record());
    j["pairs"][1]["verdict"] = "fine";
    std::ofstream(path) << j.dump();
    std::string error;
    QVERIFY(!load_review(path, &error));
    QVERIFY2(error.find("$.pairs[1].verdict") != std::string::npos, error.c_str());
    QVERIFY(!load_review(dir.filePath("none.json").toStdString(), &error));
    QVERIFY(error.find("cannot read") != std::string::npos);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(ReviewRecordTest)
#include "compare_review_record_test.moc"
