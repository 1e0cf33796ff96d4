// Calibration of the verdicts over trials, with a fixed list of seeds (deterministic, not timed):
// - of 100 A/A comparisons (two lanes of one profile, each trial's speed jittered exactly as the
//   simulator's run_jitter draws it), at most 10 are called different at 95 %. These use the
//   bootstrap directly on simulated per-trial figures: 100 real runs would take minutes;
// - a known 5 % decode difference is detected with 5 trials at the default request count,
//   end to end on simulator lanes.
#include <QtTest>

#include "test_main.h"

#include "core/metrics/trial_intervals.h"
#include "sim/run_jitter.h"
#include "sim_plan_run.h"

namespace {

using nlohmann::json;
namespace lbm = lb::metrics;

constexpr double kCalJitter = 0.03;  // log-sd of a trial's speed, as sim run_jitter=0.03
constexpr int kCalTrials = 5;
constexpr double kCalDecodeTokS = 26.9;  // the bf16 profile's single-stream decode rate

// A lane's per-trial decode figures: the profile's rate times the simulator's factor of each
// trial for the lane's seed.
std::vector<double> lane_trials(uint64_t seed) {
  std::vector<double> out;
  for (int t = 0; t < kCalTrials; ++t)
    out.push_back(kCalDecodeTokS * lb::sim::run_jitter_factor(kCalJitter, seed, t));
  return out;
}

// How many of 100 A/A pairs get a verdict other than "within noise", and with `options`.
int aa_called_different(const lbm::BootstrapOptions& options, bool expanded) {
  int different = 0;
  for (uint64_t k = 0; k < 100; ++k) {
    const auto a = lane_trials(1000 + 2 * k), b = lane_trials(1001 + 2 * k);
    const lbm::RatioInterval r =
        expanded ? lbm::ratio_over_trials(a, b, options)
                 : lbm::bootstrap_ratio(a, b, lbm::BootstrapStatistic::mean(),
                                        {.method = lbm::BootstrapMethod::Percentile});
    const lbm::Verdict v = lbm::verdict_of(r, lbm::Better::Higher);
    if (v == lbm::Verdict::Unknown) return -1;  // every pair must get an interval
    if (v != lbm::Verdict::WithinNoise) ++different;
  }
  return different;
}

json five_percent_plan() {
  const std::string fast = std::to_string(kCalDecodeTokS * 1.05);
  const std::string common = "time_scale=0.02&run_jitter=0.01";
  json spec = {
      {"kind", "speculative"}, {"concurrency", {1}}, {"output_tokens", 64}, {"trials", kCalTrials}};
  return {{"name", "five percent"},
          {"lanes",
           {{{"id", "base"}, {"base_url", "sim:bf16?" + common + "&seed=1"}},
            {{"id", "cand"}, {"base_url", "sim:bf16?" + common + "&seed=2&decode_tok_s=" + fast}}}},
          {"experiments", {spec}}};
}

}  // namespace

class TestRunCalibration : public QObject {
  Q_OBJECT

 private slots:
  void aaComparisonsAreRarelyCalledDifferent() {
    const int different = aa_called_different({}, true);
    const int plain = aa_called_different({}, false);
    qInfo("A/A pairs called different at 95 %%: %d of 100 (plain percentile bootstrap: %d)",
          different, plain);
    QVERIFY2(different >= 0 && different <= 10, std::to_string(different).c_str());
    // The expansion is what keeps five trials honest: without it more pairs are called different.
    QVERIFY(plain > different);
  }

  void theJitterHasTheSpreadAsked() {
    double sum = 0, sum2 = 0;
    const int n = 4000;
    for (int t = 0; t < n; ++t) {
      const double z = std::log(lb::sim::run_jitter_factor(kCalJitter, 7, t)) / kCalJitter;
      sum += z;
      sum2 += z * z;
    }
    const double mean = sum / n, sd = std::sqrt(sum2 / n - mean * mean);
    QVERIFY2(std::abs(mean) < 0.05, std::to_string(mean).c_str());
    QVERIFY2(std::abs(sd - 1) < 0.05, std::to_string(sd).c_str());
    QCOMPARE(lb::sim::run_jitter_factor(kCalJitter, 7, 3),
             lb::sim::run_jitter_factor(kCalJitter, 7, 3));
    QVERIFY(lb::sim::run_jitter_factor(kCalJitter, 7, 3) !=
            lb::sim::run_jitter_factor(kCalJitter, 8, 3));
    QCOMPARE(lb::sim::run_jitter_factor(0, 7, 3), 1.0);
  }

  void fivePercentDecodeIsDetectedWithFiveTrials() {
    const auto run = lb::test::run_sim_plan(five_percent_plan(), "lb-run-calibration");
    QCOMPARE(run.result.exit_code, 0);
    const json e = run.experiment("speculative");
    QCOMPARE(e["lanes"]["base"]["phases"]["c1"]["completed"], 16 * kCalTrials);
    bool found = false;
    for (const json& c : e["comparisons"]) {
      if (c["figure"] != "median_decode_tok_s") continue;
      found = true;
      const std::string said = c["statement"];
      qInfo("%s", said.c_str());
      QCOMPARE(c["basis"], "trials");
      QCOMPARE(c["n_baseline"], kCalTrials);
      QCOMPARE(c["verdict"], "faster");
      QVERIFY2(double(c["ratio"]) > 1.02 && double(c["ratio"]) < 1.08, said.c_str());
    }
    QVERIFY(found);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestRunCalibration)
#include "run_calibration_test.moc"
