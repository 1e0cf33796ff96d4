// The live summary (SummaryAccumulator) and its order statistics agree with the batch summary at
// every point of a run: percentiles, min and max exactly, means and deviations to rounding.
#include <QtTest>

#include "test_main.h"

#include <cmath>
#include <random>

#include "core/metrics/order_statistics.h"
#include "core/metrics/sampled_statistics.h"
#include "core/metrics/summary.h"
#include "core/metrics/summary_accumulator.h"
#include "summary_checks.h"

using namespace lb::metrics;
using namespace lb::metrics::test;

class SummaryAccumulatorTest : public QObject {
  Q_OBJECT
 private slots:
  void orderStatisticsMatchPercentilesAtEverySize() {
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int> value(0, 999);  // many ties across block boundaries
    OrderStatistics stats;
    std::vector<double> all;
    for (int i = 0; i < 5000; ++i) {
      const double v = i % 7 == 0 ? 1e9 - i : value(rng) / 8.0;  // rising and random values
      stats.insert(v);
      all.push_back(v);
      if (i % 97 != 0 && i < 4990) continue;
      const Distribution want = describe(all);
      QVERIFY2(same_distribution(stats.describe(), want), qPrintable(QString::number(i)));
      for (double q : {0.0, 12.5, 33.3, 99.9, 100.0})
        QCOMPARE(stats.percentile(q), percentile(all, q));
    }
    std::sort(all.begin(), all.end());
    for (size_t k = 0; k < all.size(); k += 101) QCOMPARE(stats.at(k), all[k]);
  }

  void emptyOrderStatisticsAreNaN() {
    const OrderStatistics stats;
    QVERIFY(std::isnan(stats.percentile(50)));
    const Distribution d = stats.describe();
    QCOMPARE(d.count, size_t(0));
    QVERIFY(std::isnan(d.p99) && std::isnan(d.mean) && std::isnan(d.min));
  }

  void erasedValuesLeaveTheRanksAndMoments() {
    std::mt19937_64 rng(3);
    std::uniform_int_distribution<int> value(0, 300);
    OrderStatistics stats;
    std::vector<double> kept;
    for (int i = 0; i < 3000; ++i) {
      const double v = value(rng);
      stats.insert(v);
      kept.push_back(v);
    }
    QVERIFY(!stats.erase(1000));      // never inserted
    for (int i = 0; i < 2500; ++i) {  // erase most of them, in insertion order
      QVERIFY(stats.erase(kept.front()));
      kept.erase(kept.begin());
      if (i % 250 != 0) continue;
      QVERIFY2(same_distribution(stats.describe(), describe(kept)), qPrintable(QString::number(i)));
    }
    QCOMPARE(stats.size(), kept.size());
  }

  // A live sample replaces a random value with each new one; when the values drift (TTFT rising as
  // a server fills), new values land in the last block while erases thin every block. The blocks
  // must not pile up half-empty: a sample of 20,000 once held about 500,000 values' room.
  void driftingValuesKeepTheBlocksFew() {
    std::mt19937_64 rng(11);
    OrderStatistics stats;
    std::vector<double> kept;
    double next = 0;
    for (int i = 0; i < 20'000; ++i) {
      stats.insert(next);
      kept.push_back(next++);
    }
    for (int i = 0; i < 200'000; ++i) {
      const size_t at = std::uniform_int_distribution<size_t>(0, kept.size() - 1)(rng);
      QVERIFY(stats.erase(kept[at]));
      kept[at] = next++;
      stats.insert(kept[at]);
    }
    QCOMPARE(stats.size(), kept.size());
    const size_t bound = 4 * kept.size() + 4 * OrderStatistics::kMaxBlock;
    QVERIFY2(stats.values_held() <= bound,
             qPrintable(
                 QString("room for %1 values, %2 held").arg(stats.values_held()).arg(kept.size())));
    std::sort(kept.begin(), kept.end());
    for (size_t k = 0; k < kept.size(); k += 97) QCOMPARE(stats.at(k), kept[k]);
    QVERIFY(same_distribution(stats.describe(), describe(kept)));
  }

  void sampledStatisticsAreExactUntilTheSampleFills() {
    std::mt19937_64 rng(5);
    std::lognormal_distribution<double> gap(2.5, 0.6);
    SampledStatistics sampled(2000);
    std::vector<double> all;
    for (int i = 0; i < 2000; ++i) {
      all.push_back(gap(rng));
      sampled.insert(all.back());
    }
    QVERIFY(sampled.exact());
    QVERIFY(same_distribution(sampled.describe(), describe(all)));
    for (int i = 0; i < 198'000; ++i) {
      all.push_back(gap(rng));
      sampled.insert(all.back());
    }
    // 100x more values than the sample holds: count, mean, min and max stay exact, and the
    // percentiles of the uniform sample land near the true ones.
    QVERIFY(!sampled.exact());
    QCOMPARE(sampled.sample().size(), size_t(2000));
    const Distribution want = describe(all);
    const Distribution got = sampled.describe();
    QCOMPARE(got.count, want.count);
    QVERIFY(close_to(got.mean, want.mean));
    QVERIFY(std::abs(got.std - want.std) < 1e-6 * want.std);
    QCOMPARE(got.min, want.min);
    QCOMPARE(got.max, want.max);
    QVERIFY2(std::abs(got.p50 / want.p50 - 1) < 0.05, qPrintable(QString::number(got.p50)));
    QVERIFY2(std::abs(got.p90 / want.p90 - 1) < 0.08, qPrintable(QString::number(got.p90)));
  }

  void sampledEventDistributionsAreMarkedEstimated() {
    std::mt19937_64 rng(13);
    SummaryAccumulator live({}, 50);  // far fewer than the gaps of 40 requests
    SummaryAccumulator exact;
    for (int64_t i = 0; i < 40; ++i) {
      const RequestRecord r = random_request(rng, i);
      live.add(r);
      exact.add(r);
    }
    const LaneSummary l = live.summary(), e = exact.summary();
    QCOMPARE(l.provenance.at("itl"), Provenance::Estimated);
    QCOMPARE(e.provenance.at("itl"), Provenance::Measured);
    QCOMPARE(l.itl_ms.count, e.itl_ms.count);
    QCOMPARE(l.itl_ms.max, e.itl_ms.max);
    QVERIFY(same_distribution(l.ttft_ms, e.ttft_ms));  // per-request figures stay exact
  }

  void liveSummaryEqualsBatchSummaryAfterEveryBatch() {
    std::mt19937_64 rng(11);
    std::vector<RequestRecord> so_far;
    SloSpec slo;
    slo.ttft_ms = 200;
    SummaryAccumulator live(slo);
    for (int64_t batch = 0; batch < 40; ++batch) {
      for (int64_t i = 0; i < 1 + batch % 7; ++i) {
        so_far.push_back(random_request(rng, static_cast<int64_t>(so_far.size())));
        live.add(so_far.back());
      }
      compare_summaries(live.summary(), summarize(so_far, slo));
      if (QTest::currentTestFailed()) {
        qWarning("after batch %lld", static_cast<long long>(batch));
        return;
      }
    }
    QCOMPARE(live.requests(), static_cast<int64_t>(so_far.size()));
  }

  void sampledRequestFiguresAreExactUntilTheSampleFills() {
    std::mt19937_64 rng(43);
    SummaryAccumulator live({}, 50, ValueStorage::Memory, 300);
    SummaryAccumulator exact;
    int64_t completed = 0;
    for (int64_t i = 0; completed < 300; ++i) {
      const RequestRecord r = random_request(rng, i);
      live.add(r);
      exact.add(r);
      completed = exact.summary().completed;
    }
    LaneSummary l = live.summary();
    QVERIFY(l.ttft_ms.count <= 300);
    QVERIFY(same_distribution(l.ttft_ms, exact.summary().ttft_ms));
    QCOMPARE(l.provenance.at("ttft"), Provenance::Measured);
    for (int64_t i = 0; i < 3000; ++i) {  // ten times the sample
      const RequestRecord r = random_request(rng, 10'000 + i);
      live.add(r);
      exact.add(r);
    }
    l = live.summary();
    const LaneSummary e = exact.summary();
    QCOMPARE(l.ttft_ms.count, e.ttft_ms.count);  // counts, means and extremes stay exact
    QCOMPARE(l.ttft_ms.max, e.ttft_ms.max);
    QVERIFY(close_to(l.ttft_ms.mean, e.ttft_ms.mean));
    QCOMPARE(l.provenance.at("ttft"), Provenance::Estimated);
    QCOMPARE(l.provenance.at("decode_tok_s"), Provenance::Estimated);
    QCOMPARE(e.provenance.at("ttft"), Provenance::Measured);
    QVERIFY(std::abs(l.ttft_ms.p50 / e.ttft_ms.p50 - 1) < 0.1);
  }

  void missingValuesStayOutOfTheLiveDistributions() {
    // A completed request with no events has no TTFT: it adds nothing to the TTFT samples.
    RequestRecord r;
    r.lane_id = "a";
    r.result.t_sent_ns = 1'000;
    r.result.t_done_ns = 2'000'000;
    r.result.http_status = 200;
    r.result.usage.completion_tokens = 0;
    SummaryAccumulator live;
    live.add(r);
    const LaneSummary s = live.summary();
    QCOMPARE(s.completed, int64_t(1));
    QCOMPARE(s.ttft_ms.count, size_t(0));
    QVERIFY(std::isnan(s.ttft_ms.median));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SummaryAccumulatorTest)
#include "metrics_summary_accumulator_test.moc"
