// The review records of a run folder, one per lane pair: a run folder written before the record
// was one file per pair holds the run's triage (review.<candidate>.json) and the reviewer's
// verdicts (review.json) side by side; both are read as one record and new verdicts go to one
// file.
#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"

#include "core/compare/run_reviews.h"

using namespace lb::compare;

namespace run_reviews_test {

ReviewRecord three_pairs(const std::string& a, const std::string& b) {
  std::vector<PairComparison> pairs{
      compare_pair(0, "same", "same", nullptr, 0.95),
      compare_pair(1, "It takes 165 minutes.", "Roughly three hours, 175 minutes.", nullptr, 0.95),
      compare_pair(2, "Paris is the capital.", "The capital is Lyon, not Paris.", nullptr, 0.95)};
  return make_review(a, b, "builtin:regression-20", 0.95, std::move(pairs));
}

SystemTime time_at(const char* iso) { return parse_iso8601_utc(iso).value(); }

std::string review_path_in(const QTemporaryDir& dir, const char* name) {
  return dir.filePath(name).toStdString();
}

}  // namespace run_reviews_test

using namespace run_reviews_test;

class RunReviewsTest : public QObject {
  Q_OBJECT
 private slots:
  // The bug: the gate table took the first record of a pair (the run's triage, no verdicts) and
  // the reviewer's review.json never counted.
  void verdicts_beside_the_runs_triage_count() {
    QTemporaryDir dir;
    ReviewRecord reviewed = three_pairs("bf16", "fp8");
    QVERIFY(!reviewed.outcome().passed);
    reviewed.set_verdict(1, Verdict::BenignDrift, "rounding", time_at("2026-12-01T10:00:00Z"));
    reviewed.set_verdict(2, Verdict::MaterialDifference, "", time_at("2026-12-01T10:01:00Z"));
    std::string error;
    QVERIFY(
        save_review(three_pairs("bf16", "fp8"), review_path_in(dir, "review.fp8.json"), &error));
    QVERIFY(save_review(three_pairs("bf16", "fp8-mtp3"),
                        review_path_in(dir, "review.fp8-mtp3.json"), &error));
    QVERIFY(save_review(reviewed, review_path_in(dir, "review.json"), &error));

    std::vector<std::string> warnings;
    const auto files = read_review_files(dir.path().toStdString(), &warnings);
    QCOMPARE(files.size(), size_t(3));
    QVERIFY(warnings.empty());
    const auto records = reviews_by_pair(files);
    QCOMPARE(records.size(), size_t(2));  // one per pair, never the same pair twice
    const auto fp8 = review_for_pair(files, "bf16", "fp8");
    QVERIFY(fp8);
    QVERIFY2(fp8->outcome().passed, fp8->outcome().summary.c_str());
    QCOMPARE(fp8->pairs[1].note, std::string("rounding"));
    const auto mtp = review_for_pair(files, "bf16", "fp8-mtp3");
    QVERIFY(mtp && !mtp->outcome().passed);
    QVERIFY(!review_for_pair(files, "fp8", "bf16"));
    // New verdicts go to the run's own file of the pair, not a second copy.
    QCOMPARE(review_file_for_pair(files, "bf16", "fp8"), std::string("review.fp8.json"));
    QCOMPARE(review_file_for_pair(files, "fp8", "fp8-mtp3"),
             std::string("review.fp8.fp8-mtp3.json"));
    QCOMPARE(review_file_for_pair(files, "20261201-run:bf16", "fp8"),
             std::string("review.20261201-run_bf16.fp8.json"));
  }

  // Each prompt pair takes the verdict given last, whichever file holds it; one never given
  // does not undo one that was.
  void the_latest_verdict_of_a_prompt_pair_wins() {
    ReviewRecord older = three_pairs("bf16", "fp8"), newer = three_pairs("bf16", "fp8");
    older.set_verdict(1, Verdict::Blocker, "", time_at("2026-12-01T10:00:00Z"));
    older.set_verdict(2, Verdict::BenignDrift, "", time_at("2026-12-01T12:00:00Z"));
    newer.set_verdict(1, Verdict::BenignDrift, "", time_at("2026-12-01T11:00:00Z"));
    const std::vector<StoredReview> files = {{"review.fp8.json", newer}, {"review.json", older}};
    const auto merged = review_for_pair(files, "bf16", "fp8");
    QVERIFY(merged);
    QCOMPARE(merged->pairs[1].verdict, Verdict::BenignDrift);
    QCOMPARE(merged->pairs[2].verdict, Verdict::BenignDrift);
    QCOMPARE(merged->pairs[0].verdict, Verdict::Identical);
  }

  void put_review_replaces_the_pairs_record() {
    std::vector<ReviewRecord> records = {three_pairs("bf16", "fp8"),
                                         three_pairs("bf16", "fp8-mtp3")};
    ReviewRecord reviewed = three_pairs("bf16", "fp8");
    reviewed.set_verdict(2, Verdict::Blocker, "", time_at("2026-12-01T10:00:00Z"));
    put_review(records, reviewed);
    QCOMPARE(records.size(), size_t(2));
    QCOMPARE(records[0].pairs[2].verdict, Verdict::Blocker);
    put_review(records, three_pairs("fp8", "fp8-mtp3"));
    QCOMPARE(records.size(), size_t(3));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RunReviewsTest)
#include "compare_run_reviews_test.moc"
