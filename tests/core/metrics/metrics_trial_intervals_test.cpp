// Intervals over trials: the Student quantile and the expansion they rest on, per-trial figures
// from summaries, intervals that contain the per-trial mean and widen with the trials' spread, and
// lane comparisons that go over trials when both lanes ran more than one.
#include <QtTest>

#include "test_main.h"

#include <cmath>
#include <random>

#include "core/metrics/summary_intervals.h"
#include "core/metrics/trial_intervals.h"

using namespace lb::metrics;
using nlohmann::json;

namespace {

// One trial's figures: every figure at `scale` times a base value (decode and output scale up,
// latencies down), so a lane's speed is one number.
TrialValues trial_at(double scale) {
  TrialValues v;
  for (const TrialFigure& f : trial_figures()) {
    const double base = std::string(f.key) == "output_throughput" ? 500.0 : 40.0;
    v.push_back(f.better == Better::Higher ? base * scale : base / scale);
  }
  return v;
}

std::vector<TrialValues> trials_with_spread(uint64_t seed, size_t n, double speed, double sd) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> z(0, 1);
  std::vector<TrialValues> out;
  for (size_t i = 0; i < n; ++i) out.push_back(trial_at(speed * std::exp(sd * z(rng))));
  return out;
}

size_t figure_index(const std::string& key) {
  for (size_t i = 0; i < trial_figures().size(); ++i)
    if (key == trial_figures()[i].key) return i;
  return SIZE_MAX;
}

}  // namespace

class MetricsTrialIntervalsTest : public QObject {
  Q_OBJECT
 private slots:
  void studentQuantileMatchesTables() {
    QVERIFY(std::abs(student_t_quantile(0.95, 1) - 12.706) < 1e-3);
    QVERIFY(std::abs(student_t_quantile(0.95, 4) - 2.776) < 1e-3);
    QVERIFY(std::abs(student_t_quantile(0.95, 8) - 2.306) < 1e-3);
    QVERIFY(std::abs(student_t_quantile(0.99, 10) - 3.169) < 1e-3);
    QVERIFY(std::abs(student_t_quantile(0.95, 1e6) - 1.960) < 1e-3);
    QVERIFY(std::isnan(student_t_quantile(1.5, 4)));
  }

  void fewTrialsExpandTheLevel() {
    // 5 trials: z = sqrt(5/4) * 2.776 = 3.104, two-sided 0.99809.
    QVERIFY(std::abs(expanded_level(0.95, 5) - 0.99809) < 1e-4);
    // 30 trials: z = sqrt(30/29) * 2.045 = 2.080, two-sided 0.9625: close to the nominal level.
    QVERIFY(std::abs(expanded_level(0.95, 30) - 0.9625) < 1e-3);
    QCOMPARE(expanded_level(0.95, 1), 0.95);
  }

  void trialValuesComeFromTheSummary() {
    LaneSummary s;
    s.completed = 4;
    s.ttft_ms.median = 120;
    s.ttft_ms.p99 = 300;
    s.tpot_ms.median = 20;
    s.itl_ms.median = 19;
    s.e2el_ms.median = 2000;
    s.e2el_ms.p99 = 2500;
    s.decode_tok_s.median = 50;
    s.output_throughput = 210;
    const TrialValues v = trial_values(s);
    QCOMPARE(v.size(), trial_figures().size());
    QCOMPARE(v[figure_index("median_ttft_ms")], 120.0);
    QCOMPARE(v[figure_index("p99_ttft_ms")], 300.0);
    QCOMPARE(v[figure_index("median_itl_ms")], 19.0);
    QCOMPARE(v[figure_index("median_decode_tok_s")], 50.0);
    QCOMPARE(v[figure_index("output_throughput")], 210.0);
    s.completed = 0;  // a trial that completed nothing has no figures
    for (double x : trial_values(s)) QVERIFY(std::isnan(x));
  }

  void intervalContainsTheMeanAndGrowsWithSpread() {
    const auto narrow = trials_with_spread(7, 5, 1.0, 0.01);
    const auto wide = trials_with_spread(7, 5, 1.0, 0.05);
    const size_t out = figure_index("output_throughput");
    const BootstrapInterval a = interval_over_trials(figure_over_trials(narrow, out));
    const BootstrapInterval b = interval_over_trials(figure_over_trials(wide, out));
    QVERIFY(a.valid() && b.valid());
    QCOMPARE(a.n, size_t(5));
    QCOMPARE(a.level, 0.95);  // the nominal level is reported
    QVERIFY(a.lo <= a.estimate && a.estimate <= a.hi);
    QVERIFY(b.hi - b.lo > 3 * (a.hi - a.lo));
    // One trial has no interval.
    QVERIFY(!interval_over_trials({500.0}).valid());
  }

  void everyTrialFigureGetsItsInterval() {
    const auto intervals = intervals_over_trials(trials_with_spread(3, 4, 1.0, 0.02));
    QCOMPARE(intervals.size(), trial_figures().size());
    for (const auto& [key, i] : intervals) {
      QVERIFY2(find_trial_figure(key), key.c_str());
      QCOMPARE(i.n, size_t(4));
      QCOMPARE(i.resamples, kDefaultBootstrapResamples);
      QCOMPARE(i.level, 0.95);
      QVERIFY(i.lo <= i.estimate && i.estimate <= i.hi);
    }
    QVERIFY(intervals_over_trials({trial_at(1.0)}).empty());
  }

  void comparisonsGoOverTrialsWhenBothLanesHaveThem() {
    PhaseSamples base{"bf16", "c1", {}, trials_with_spread(11, 5, 1.0, 0.01)};
    PhaseSamples fast{"fp8", "c1", {}, trials_with_spread(12, 5, 1.10, 0.01)};
    PhaseSamples same{"bf16b", "c1", {}, trials_with_spread(13, 5, 1.0, 0.01)};
    const std::vector<FigureComparison> c =
        lane_comparisons({"bf16", "fp8", "bf16b"}, {base, fast, same});
    QCOMPARE(c.size(), 2 * trial_figures().size());
    for (const FigureComparison& x : c) {
      QCOMPARE(std::string(x.basis()), std::string("trials"));
      QCOMPARE(std::string(x.method_name()), std::string("bootstrap over trials"));
      QCOMPARE(x.ratio.n_baseline, size_t(5));
      if (x.candidate == "fp8")
        QVERIFY2(x.verdict == Verdict::Faster, x.statement.c_str());
      else
        QVERIFY2(x.verdict == Verdict::WithinNoise, x.statement.c_str());
    }
    const auto d = compare_figure("bf16", base, "fp8", fast, "output_throughput");
    QVERIFY(d.has_value());
    QVERIFY(std::abs(d->ratio.ratio - 1.10) < 0.03);
    const std::string said = d->statement;
    QVERIFY2(said.rfind("fp8/bf16 c1 output tok/s 1.", 0) == 0, said.c_str());
    QVERIFY2(said.find("faster (95 %)") != std::string::npos, said.c_str());
    // Within noise: the estimate is in trials.
    const auto w = compare_figure("bf16", base, "bf16b", same, "median_decode_tok_s");
    QVERIFY(w && w->over_trials);
    QVERIFY2(w->verdict == Verdict::WithinNoise, w->statement.c_str());
  }

  void oneTrialComparesOverRequests() {
    RequestSamples a, b;
    for (int i = 0; i < 50; ++i) {
      a.decode_tok_s.push_back(40 + i % 5);
      b.decode_tok_s.push_back(60 + i % 5);
    }
    PhaseSamples base{"a", "c1", a, {trial_at(1.0)}};
    PhaseSamples cand{"b", "c1", b, {trial_at(1.5)}};
    const auto d = compare_figure("a", base, "b", cand, "median_decode_tok_s");
    QVERIFY(d.has_value());
    QCOMPARE(std::string(d->basis()), std::string("requests"));
    QCOMPARE(std::string(d->method_name()), std::string("bootstrap over requests"));
    QCOMPARE(d->ratio.n_baseline, size_t(50));
    // Aggregate output tok/s has no request basis.
    QVERIFY(!compare_figure("a", base, "b", cand, "output_throughput").has_value());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(MetricsTrialIntervalsTest)
#include "metrics_trial_intervals_test.moc"
