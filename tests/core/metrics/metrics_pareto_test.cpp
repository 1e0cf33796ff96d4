// The Pareto frontier of (total output, per-user decode) points: the points no other beats on
// both axes, ties kept, unusable figures left out.
#include <QtTest>

#include <cmath>
#include <limits>

#include "core/metrics/pareto.h"
#include "test_main.h"

using lb::metrics::ParetoPoint;

class TestPareto : public QObject {
  Q_OBJECT
 private slots:
  void dominatedPointsAreOff() {
    // A lane's levels: more streams give more total output and slower users, until saturation.
    const std::vector<ParetoPoint> p = {{26, 26.9}, {50, 13.2}, {49, 6.0}, {51, 10.0}, {47, 47.9}};
    const std::vector<bool> on = lb::metrics::pareto_frontier(p);
    QCOMPARE(on, (std::vector<bool>{false, true, false, true, true}));
    const auto f = lb::metrics::frontier_points(p);
    QCOMPARE(f.size(), size_t(3));
    QCOMPARE(f[0].total_tok_s, 47.0);
    QCOMPARE(f[2].total_tok_s, 51.0);
  }

  void tiesAndEqualTotals() {
    // Equal points are both on it; of two with one total, only the faster user rate.
    const std::vector<ParetoPoint> p = {{10, 5}, {10, 5}, {10, 4}, {8, 5}, {8, 6}};
    QCOMPARE(lb::metrics::pareto_frontier(p), (std::vector<bool>{true, true, false, false, true}));
  }

  void unusableFiguresAreLeftOut() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<ParetoPoint> p = {{-1, 100}, {nan, 1}, {inf, inf}, {5, 5}};
    QCOMPARE(lb::metrics::pareto_frontier(p), (std::vector<bool>{false, false, false, true}));
    QVERIFY(lb::metrics::pareto_frontier({}).empty());
    QVERIFY(lb::metrics::frontier_points({}).empty());
  }

  void everyFrontierPointIsUndominated() {
    // Against a brute-force check on a fixed pseudo-random cloud.
    std::vector<ParetoPoint> p;
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 500; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      p.push_back({static_cast<double>(x % 100), static_cast<double>((x >> 20) % 100)});
    }
    const std::vector<bool> on = lb::metrics::pareto_frontier(p);
    for (size_t i = 0; i < p.size(); ++i) {
      bool dominated = false;
      for (size_t j = 0; j < p.size(); ++j)
        dominated =
            dominated ||
            (p[j].total_tok_s >= p[i].total_tok_s && p[j].per_user_tok_s >= p[i].per_user_tok_s &&
             (p[j].total_tok_s > p[i].total_tok_s || p[j].per_user_tok_s > p[i].per_user_tok_s));
      QCOMPARE(bool(on[i]), !dominated);
    }
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestPareto)
#include "metrics_pareto_test.moc"
