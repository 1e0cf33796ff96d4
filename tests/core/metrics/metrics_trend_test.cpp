// The Mann-Kendall trend test and Sen's slope on series whose answers are worked out by hand.
#include <QtTest>

#include "test_main.h"

#include <cmath>

#include "core/metrics/trend_test.h"

using namespace lb::metrics;

namespace {

std::vector<double> trend_times(int n) {
  std::vector<double> t;
  for (int i = 0; i < n; ++i) t.push_back(i);
  return t;
}

}  // namespace

class MetricsTrendTest : public QObject {
  Q_OBJECT
 private slots:
  // Strictly rising, n = 10: S = 45, Var(S) = 10 x 9 x 25 / 18 = 125, Z = 44 / sqrt(125).
  void aRisingSeriesDriftsUp() {
    std::vector<double> v;
    for (int i = 0; i < 10; ++i) v.push_back(100 + 10 * i);
    const TrendResult r = mann_kendall(trend_times(10), v);
    QCOMPARE(r.trend, Trend::DriftingUp);
    QCOMPARE(r.n, 10);
    QCOMPARE(r.s, 45.0);
    QVERIFY(std::abs(r.z - 44.0 / std::sqrt(125.0)) < 1e-12);
    QVERIFY(std::abs(r.p - std::erfc(r.z / std::sqrt(2.0))) < 1e-15);
    QVERIFY(r.p < 1e-4);
    QCOMPARE(r.slope, 10.0);
    QVERIFY(std::abs(r.change - 90.0 / 145.0) < 1e-12);  // 10 x 9 over the median 145
    QCOMPARE(std::string(to_string(r.trend)), std::string("drifting up"));
  }

  void aFallingSeriesDriftsDown() {
    std::vector<double> v;
    for (int i = 0; i < 8; ++i) v.push_back(200 - 12 * i);
    const TrendResult r = mann_kendall(trend_times(8), v);
    QCOMPARE(r.trend, Trend::DriftingDown);
    QVERIFY(r.change < -0.05);
  }

  // Significant, but 1000 to 1009 is under 1 % of the level: below the 5 % effect floor.
  void aTinySignificantSlopeIsAPlateau() {
    std::vector<double> v;
    for (int i = 0; i < 10; ++i) v.push_back(1000 + i);
    const TrendResult r = mann_kendall(trend_times(10), v);
    QVERIFY(r.p < 0.05);
    QVERIFY(std::abs(r.change) < 0.05);
    QCOMPARE(r.trend, Trend::Plateau);
  }

  void noiseWithoutTrendIsAPlateau() {
    const std::vector<double> v = {100, 130, 95, 125, 102, 128, 97, 131, 99, 127};
    const TrendResult r = mann_kendall(trend_times(10), v);
    QVERIFY(r.p > 0.05);
    QCOMPARE(r.trend, Trend::Plateau);
  }

  // Every value tied: Var(S) is 0 after the tie correction, so no trend can be claimed.
  void allTiedIsAPlateau() {
    const TrendResult r = mann_kendall(trend_times(6), std::vector<double>(6, 42.0));
    QCOMPARE(r.s, 0.0);
    QCOMPARE(r.p, 1.0);
    QCOMPARE(r.trend, Trend::Plateau);
  }

  void tooFewPointsAreSaid() {
    const TrendResult r = mann_kendall({0, 1, 2}, {1, 2, 3});
    QCOMPARE(r.trend, Trend::TooFewPoints);
    QCOMPARE(std::string(to_string(r.trend)), std::string("too few intervals"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(MetricsTrendTest)
#include "metrics_trend_test.moc"
