// Expected values are numpy's (numpy.percentile default "linear" method, numpy.std ddof=0),
// worked out by hand: index = (n - 1) * q / 100, interpolated between its neighbours.
#include <QtTest>

#include "test_main.h"

#include <cmath>
#include <numeric>

#include "core/metrics/percentile.h"

using namespace lb::metrics;

class PercentileTest : public QObject {
  Q_OBJECT
 private slots:
  void fourValues() {
    const std::vector<double> v = {4, 1, 3, 2};
    QCOMPARE(percentile(v, 50), 2.5);
    QCOMPARE(percentile(v, 0), 1.0);
    QCOMPARE(percentile(v, 100), 4.0);
    QCOMPARE(percentile(v, 25), 1.75);  // index 0.75
    QCOMPARE(percentile(v, -10), 1.0);  // out-of-range q is clamped, never reads outside
    QCOMPARE(percentile(v, 250), 4.0);
  }
  void classicExample() {
    const std::vector<double> v = {15, 20, 35, 40, 50};
    QCOMPARE(percentile(v, 40), 29.0);  // index 1.6: 20 + 0.6 * 15
    QCOMPARE(percentile(v, 90), 46.0);  // index 3.6: 40 + 0.6 * 10
  }
  void upperFractionInterpolatesFromAbove() {
    const std::vector<double> v = {10, 7, 4, 3, 2, 1};
    QVERIFY(std::abs(percentile(v, 99) - 9.85) < 1e-12);  // index 4.95 between 7 and 10
  }
  void oneToHundred() {
    std::vector<double> v(100);
    std::iota(v.begin(), v.end(), 1.0);
    QVERIFY(std::abs(percentile(v, 95) - 95.05) < 1e-9);
    QVERIFY(std::abs(percentile(v, 99) - 99.01) < 1e-9);
    QCOMPARE(percentile(v, 50), 50.5);
    QCOMPARE(median(v), 50.5);
  }
  void meanAndPopulationStd() {
    const std::vector<double> v = {2, 4, 4, 4, 5, 5, 7, 9};
    QCOMPARE(mean(v), 5.0);
    QCOMPARE(stddev_population(v), 2.0);  // the sample std (ddof=1) would be 2.138
    QCOMPARE(median(v), 4.5);
  }
  void describeFillsEveryField() {
    const Distribution d = describe({3, 1, 2});
    QCOMPARE(d.count, size_t(3));
    QCOMPARE(d.mean, 2.0);
    QCOMPARE(d.median, 2.0);
    QCOMPARE(d.p50, 2.0);
    QVERIFY(std::abs(d.p90 - 2.8) < 1e-12);
    QVERIFY(std::abs(d.p99 - 2.98) < 1e-12);
    QVERIFY(std::abs(d.std - std::sqrt(2.0 / 3.0)) < 1e-12);
    QCOMPARE(d.min, 1.0);
    QCOMPARE(d.max, 3.0);
  }
  void singleValue() {
    const Distribution d = describe({3.5});
    QCOMPARE(d.p99, 3.5);
    QCOMPARE(d.std, 0.0);
  }
  void emptyIsNaNNotZero() {
    QVERIFY(std::isnan(percentile({}, 50)));
    QVERIFY(std::isnan(mean({})));
    const Distribution d = describe({});
    QCOMPARE(d.count, size_t(0));
    QVERIFY(std::isnan(d.mean) && std::isnan(d.p99) && std::isnan(d.std));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(PercentileTest)
#include "metrics_percentile_test.moc"
