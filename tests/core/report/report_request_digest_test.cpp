// The report's digest of requests.jsonl: inter-token gaps counted in logarithmic bins give every
// rank within the stated relative error of the exact gap (the smallest and largest exactly), and
// histograms merge as their gaps would; the caveat counts and media TTFTs follow the requests.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <random>

#include "core/report/request_digest.h"
#include "core/report/run_folder.h"
#include "test_main.h"

using lb::report::GapHistogram;
using lb::report::RequestDigest;
using lb::report::RequestPoint;

class ReportRequestDigestTest : public QObject {
  Q_OBJECT
 private slots:
  void everyRankIsWithinTheStatedErrorOfTheExactGap() {
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> gap_ms(std::log(8.0), 1.2);
    std::vector<double> exact;
    GapHistogram h, first, second;
    for (int i = 0; i < 20000; ++i) {
      const double g = i % 997 == 0 ? 0.0 : gap_ms(rng);  // a few zero gaps (tokens in one read)
      exact.push_back(g);
      h.add(g);
      (i % 2 ? first : second).add(g);
    }
    std::sort(exact.begin(), exact.end());
    QCOMPARE(h.count(), int64_t(exact.size()));
    QCOMPARE(h.at_rank(0), exact.front());
    QCOMPARE(h.at_rank(h.count() - 1), exact.back());
    for (int64_t k = 0; k < h.count(); k += 37) {
      const double want = exact[size_t(k)];
      const double got = h.at_rank(k);
      if (want < GapHistogram::kMinMs) {
        QVERIFY2(got <= GapHistogram::kMinMs * 1.01, qPrintable(QString::number(got)));
        continue;
      }
      QVERIFY2(std::abs(got - want) <= want * GapHistogram::kRelativeError * 1.0001,
               qPrintable(QString("rank %1: %2 for %3").arg(k).arg(got).arg(want)));
    }
    first.merge(second);
    QCOMPARE(first.count(), h.count());
    for (int64_t k = 0; k < h.count(); k += 101) QCOMPARE(first.at_rank(k), h.at_rank(k));
    QVERIFY(std::isnan(GapHistogram().at_rank(0)));
  }

  void theDigestCountsWhatTheReportSays() {
    auto point = [](const char* lane, const char* experiment, bool ok, bool warmup) {
      RequestPoint p;
      p.lane = lane;
      p.experiment = experiment;
      p.ok = ok;
      p.warmup = warmup;
      p.ttft_ms = 50;
      p.event_offsets_ns = {0, 1e6, 3e6, 6e6};  // gaps of 1, 2 and 3 ms
      return p;
    };
    std::vector<RequestPoint> block = {
        point("fp8", "tp", true, false), point("fp8", "tp", true, true),
        point("fp8", "other", true, false), point("fp8", "tp", false, false),
        point("bf16", "tp", true, false)};
    block[0].output_tokens_provenance = "estimated";
    block[4].media_images = 2;
    block[4].media_pixels = 2'000'000;
    RequestDigest d;
    d.add_block(block);
    d.add_block(block);
    QCOMPARE(d.failed().at("fp8"), int64_t(2));
    QVERIFY(!d.failed().count("bf16"));
    QCOMPARE(d.estimated_outputs().at("fp8"), int64_t(2));
    QCOMPARE(d.gaps("fp8", {"tp"}).count(), int64_t(6));  // warm-ups and failures are not counted
    QCOMPARE(d.gaps("fp8", {"tp", "other"}).count(), int64_t(12));
    QCOMPARE(d.gaps("fp8", {"tp"}).at_rank(0), 1.0);
    QCOMPARE(d.gaps("fp8", {"tp"}).at_rank(5), 3.0);
    QCOMPARE(d.media().at("bf16").size(), size_t(2));
    QCOMPARE(d.media().at("bf16")[0].megapixels, 2.0);
    QVERIFY(!d.media().count("fp8"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(ReportRequestDigestTest)
#include "report_request_digest_test.moc"
