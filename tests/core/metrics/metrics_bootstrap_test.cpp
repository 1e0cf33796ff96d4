// Bootstrap intervals on samples drawn from known distributions with fixed seeds: coverage of the
// true value, BCa against percentile on symmetric data, the constant-time percentile resampling
// against drawing every resample, reproducibility, and verdicts on a known shift and on A/A.
#include <QtTest>

#include "test_main.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "core/metrics/bootstrap.h"
#include "core/metrics/percentile.h"

using namespace lb::metrics;

namespace {

std::vector<double> normal_sample(uint64_t seed, size_t n, double mean, double sd) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> dist(mean, sd);
  std::vector<double> v(n);
  for (double& x : v) x = dist(rng);
  return v;
}

std::vector<double> exponential_sample(uint64_t seed, size_t n, double rate) {
  std::mt19937_64 rng(seed);
  std::exponential_distribution<double> dist(rate);
  std::vector<double> v(n);
  for (double& x : v) x = dist(rng);
  return v;
}

BootstrapOptions with(BootstrapMethod method, uint64_t seed = kDefaultBootstrapSeed) {
  BootstrapOptions o;
  o.method = method;
  o.seed = seed;
  return o;
}

// How many of 100 seeded samples' intervals contain `truth`.
template <typename Draw>
int coverage(Draw draw, BootstrapStatistic statistic, BootstrapMethod method, double truth) {
  int covered = 0;
  for (uint64_t trial = 0; trial < 100; ++trial) {
    const auto i = bootstrap_interval(draw(1000 + trial), statistic, with(method, trial + 1));
    if (i.lo <= truth && truth <= i.hi) ++covered;
  }
  return covered;
}

// Quantile p of a naive bootstrap: every resample drawn value by value, then sorted.
std::vector<double> naive_percentile_replicates(const std::vector<double>& v, double q,
                                                int resamples) {
  std::mt19937_64 rng(99);
  std::uniform_int_distribution<size_t> pick(0, v.size() - 1);
  std::vector<double> reps, resample(v.size());
  for (int b = 0; b < resamples; ++b) {
    for (double& x : resample) x = v[pick(rng)];
    reps.push_back(percentile(resample, q));
  }
  std::sort(reps.begin(), reps.end());
  return reps;
}

}  // namespace

class BootstrapTest : public QObject {
  Q_OBJECT
 private slots:
  void meanIntervalCoversTheTrueMean() {
    auto draw = [](uint64_t seed) { return normal_sample(seed, 50, 10.0, 2.0); };
    for (auto method : {BootstrapMethod::Bca, BootstrapMethod::Percentile}) {
      const int covered = coverage(draw, BootstrapStatistic::mean(), method, 10.0);
      qInfo("%s: mean covered in %d of 100", to_string(method), covered);
      QVERIFY2(covered >= 90, to_string(method));
      QVERIFY2(covered <= 99, to_string(method));  // an interval that always covers is too wide
    }
  }

  void medianIntervalCoversTheTrueMedianOfASkewedDistribution() {
    auto draw = [](uint64_t seed) { return exponential_sample(seed, 200, 0.5); };
    const double true_median = std::log(2.0) / 0.5;
    for (auto method : {BootstrapMethod::Bca, BootstrapMethod::Percentile}) {
      const int covered = coverage(draw, BootstrapStatistic::median(), method, true_median);
      qInfo("%s: median covered in %d of 100", to_string(method), covered);
      QVERIFY2(covered >= 88, to_string(method));
      QVERIFY2(covered <= 99, to_string(method));
    }
  }

  // The constant-time percentile resampling against drawing every resample: the replicates'
  // mean, spread and quantiles agree. Values i^2 make each rank's neighbours unevenly spaced, so
  // a wrong rank or a wrong upper neighbour moves the replicates.
  void percentileResamplingMatchesDrawingEveryValue() {
    std::vector<double> v(31);
    for (size_t i = 0; i < v.size(); ++i) v[i] = double(i * i);
    std::shuffle(v.begin(), v.end(), std::mt19937_64(5));
    const int resamples = 20000;
    for (double q : {50.0, 75.0, 37.0, 99.0}) {
      const auto naive = naive_percentile_replicates(v, q, resamples);
      auto fast = bootstrap_replicates(v, BootstrapStatistic::percentile(q), resamples, 77);
      std::sort(fast.begin(), fast.end());
      const double naive_sd = stddev_population(naive);
      qInfo("q%.0f: mean %.2f naive %.2f, sd %.2f naive %.2f", q, mean(fast), mean(naive),
            stddev_population(fast), naive_sd);
      // The mean of 20,000 replicates is within 0.05 sd of the true one (4 standard errors).
      QVERIFY(std::abs(mean(fast) - mean(naive)) < 0.05 * naive_sd);
      QVERIFY(std::abs(stddev_population(fast) / naive_sd - 1) < 0.04);
      for (double p : {5.0, 25.0, 75.0, 95.0})
        QVERIFY(std::abs(percentile_sorted(fast, p) - percentile_sorted(naive, p)) <
                0.15 * naive_sd);
    }
  }

  void bcaAndPercentileAgreeOnSymmetricData() {
    const auto v = normal_sample(7, 400, 100.0, 10.0);
    for (auto statistic : {BootstrapStatistic::mean(), BootstrapStatistic::median()}) {
      const auto bca = bootstrap_interval(v, statistic, with(BootstrapMethod::Bca));
      const auto pct = bootstrap_interval(v, statistic, with(BootstrapMethod::Percentile));
      const double width = pct.hi - pct.lo;
      qInfo("bca [%.3f, %.3f] percentile [%.3f, %.3f]", bca.lo, bca.hi, pct.lo, pct.hi);
      QVERIFY(width > 0);
      QVERIFY(std::abs(bca.lo - pct.lo) < 0.15 * width);
      QVERIFY(std::abs(bca.hi - pct.hi) < 0.15 * width);
      QCOMPARE(bca.estimate, pct.estimate);
      QCOMPARE(std::string(to_string(bca.method)), std::string("bca"));
    }
  }

  // On skewed data BCa moves the interval the way the skew goes (its upper end further out).
  void bcaShiftsWithSkew() {
    const auto v = exponential_sample(3, 60, 1.0);
    const auto bca = bootstrap_interval(v, BootstrapStatistic::mean(), with(BootstrapMethod::Bca));
    const auto pct =
        bootstrap_interval(v, BootstrapStatistic::mean(), with(BootstrapMethod::Percentile));
    QVERIFY(bca.hi > pct.hi);
    QVERIFY(bca.lo > pct.lo);
  }

  void sameSeedSameInterval() {
    const auto v = exponential_sample(11, 300, 2.0);
    for (auto statistic : {BootstrapStatistic::mean(), BootstrapStatistic::percentile(99)}) {
      const auto a = bootstrap_interval(v, statistic);
      const auto b = bootstrap_interval(v, statistic);
      QCOMPARE(a.lo, b.lo);
      QCOMPARE(a.hi, b.hi);
      auto shuffled = v;
      std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(1));
      if (statistic.kind == BootstrapStatistic::Kind::Percentile) {
        const auto c = bootstrap_interval(shuffled, statistic);  // percentiles sort first
        QCOMPARE(c.lo, a.lo);
      }
      BootstrapOptions other;
      other.seed = 12345;
      const auto d = bootstrap_interval(v, statistic, other);
      QVERIFY(d.lo != a.lo || d.hi != a.hi);
      QCOMPARE(a.resamples, kDefaultBootstrapResamples);
      QCOMPARE(a.n, v.size());
      QVERIFY(a.lo <= a.estimate && a.estimate <= a.hi);
    }
  }

  void tooFewOrConstantValues() {
    const auto one = bootstrap_interval({4.0}, BootstrapStatistic::median());
    QVERIFY(!one.valid());
    QCOMPARE(one.estimate, 4.0);
    const auto none = bootstrap_interval({}, BootstrapStatistic::mean());
    QVERIFY(!none.valid());
    QVERIFY(std::isnan(none.estimate));
    // A percentile needs a value expected beyond it on each side: 100 values for p99.
    const auto p99 = BootstrapStatistic::percentile(99);
    QCOMPARE(bootstrap_min_values(p99), size_t(100));
    QCOMPARE(bootstrap_min_values(BootstrapStatistic::percentile(10)), size_t(10));
    QCOMPARE(bootstrap_min_values(BootstrapStatistic::median()), size_t(2));
    QVERIFY(!bootstrap_interval(normal_sample(1, 99, 5, 1), p99).valid());
    QVERIFY(bootstrap_interval(normal_sample(1, 100, 5, 1), p99).valid());
    QVERIFY(!bootstrap_interval(normal_sample(1, 5000, 5, 1), BootstrapStatistic::percentile(100))
                 .valid());
    const auto few = bootstrap_ratio(normal_sample(1, 99, 5, 1), normal_sample(2, 500, 5, 1), p99);
    QVERIFY(!few.valid());
    QVERIFY(few.ratio > 0);
    const auto flat =
        bootstrap_interval(std::vector<double>(50, 7.0), BootstrapStatistic::median());
    QVERIFY(flat.valid());
    QCOMPARE(flat.lo, 7.0);
    QCOMPARE(flat.hi, 7.0);
  }

  void aKnownFivePercentShiftIsDetected() {
    const auto base = normal_sample(21, 2000, 50.0, 5.0);
    auto faster = normal_sample(22, 2000, 50.0, 5.0);
    for (double& x : faster) x *= 1.05;
    const auto r = bootstrap_ratio(base, faster, BootstrapStatistic::median());
    qInfo("ratio %.4f [%.4f, %.4f]", r.ratio, r.lo, r.hi);
    QVERIFY(std::abs(r.ratio - 1.05) < 0.015);
    QVERIFY(r.lo > 1.0 && r.lo < r.ratio && r.ratio < r.hi);
    QCOMPARE(verdict_of(r, Better::Higher), Verdict::Faster);  // decode tok/s
    QCOMPARE(verdict_of(r, Better::Lower), Verdict::Slower);   // a latency
    QCOMPARE(samples_needed(r), int64_t(0));
    const auto back = bootstrap_ratio(faster, base, BootstrapStatistic::median());
    QCOMPARE(verdict_of(back, Better::Lower), Verdict::Faster);
    QCOMPARE(std::string(to_string(Verdict::WithinNoise)), std::string("within noise"));
  }

  // Of 100 comparisons of a distribution with itself, at most 10 are called different at 95 %.
  void aaComparisonsAreWithinNoise() {
    int different = 0;
    int64_t needed_sum = 0;
    for (uint64_t trial = 0; trial < 100; ++trial) {
      const auto a = exponential_sample(500 + 2 * trial, 200, 0.1);
      const auto b = exponential_sample(501 + 2 * trial, 200, 0.1);
      BootstrapOptions o;
      o.seed = trial;
      const auto r = bootstrap_ratio(a, b, BootstrapStatistic::median(), o);
      const Verdict v = verdict_of(r, Better::Lower);
      QVERIFY(v != Verdict::Unknown);
      if (v != Verdict::WithinNoise) ++different;
      if (v == Verdict::WithinNoise) needed_sum += std::max<int64_t>(0, samples_needed(r));
    }
    qInfo("A/A called different: %d of 100", different);
    QVERIFY(different <= 10);
    QVERIFY(needed_sum > 100 * 200);  // noise: resolving it takes more requests than were run
  }

  void samplesNeededScalesTheWidthToTheEffect() {
    RatioInterval r;
    r.ratio = 1.02;
    r.lo = 0.99;
    r.hi = 1.05;
    r.n_baseline = 100;
    r.n_candidate = 80;
    const double half = std::log(1.02 / 0.99), effect = std::log(1.02);
    QCOMPARE(samples_needed(r), int64_t(std::ceil(100 * (half / effect) * (half / effect))));
    QVERIFY(samples_needed(r) > 100);
    r.ratio = 1.0;
    QCOMPARE(samples_needed(r), int64_t(-1));  // no difference to resolve
    r.ratio = 0.98;  // below 1: the upper half of the interval is what must shrink
    const double upper = std::log(1.05 / 0.98), down = std::log(0.98);
    QCOMPARE(samples_needed(r), int64_t(std::ceil(100 * (upper / down) * (upper / down))));
    r.lo = 1.01;
    QCOMPARE(samples_needed(r), int64_t(0));
    QCOMPARE(verdict_of(RatioInterval{}, Better::Higher), Verdict::Unknown);
  }

  void ratioNeedsAPositiveBaseline() {
    const auto r =
        bootstrap_ratio(std::vector<double>(10, 0.0), {1, 2, 3}, BootstrapStatistic::median());
    QVERIFY(!r.valid());
    const auto one = bootstrap_ratio({2.0}, {3.0}, BootstrapStatistic::median());
    QVERIFY(!one.valid());
    QCOMPARE(one.ratio, 1.5);
  }

  // 100,000 values: the interval of the median is narrow around the sample median.
  void largeSampleMedian() {
    const auto v = normal_sample(8, 100'000, 30.0, 3.0);
    const auto i = bootstrap_interval(v, BootstrapStatistic::median());
    QCOMPARE(i.estimate, median(v));
    QVERIFY(i.lo < i.estimate && i.estimate < i.hi);
    // The median's standard error is sd * sqrt(pi / 2n) = 0.0119: the 95 % width is about 0.047.
    qInfo("width %.4f", i.hi - i.lo);
    QVERIFY(i.hi - i.lo > 0.035 && i.hi - i.lo < 0.06);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(BootstrapTest)
#include "metrics_bootstrap_test.moc"
