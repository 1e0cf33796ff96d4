// run_jitter: the lane option and its checks, the trial header, a factor that is deterministic
// per (seed, trial), and an engine whose prefill and decode go exactly that much faster.
#include <QtTest>

#include "test_main.h"

#include <cmath>

#include "sim/profile.h"
#include "sim/run_jitter.h"
#include "sim/sim_config.h"
#include "sim_engine_runs.h"

using namespace lb::sim;

namespace {

// One request of 512 prompt and 64 output tokens on the bf16 profile, in virtual time.
lb::sim::test::RequestTiming timed_request(double speed_factor) {
  VirtualClock clock;
  EngineModel engine(*builtin_profile("bf16"), clock);
  std::vector<lb::sim::test::RequestTiming> done;
  SeqSpec spec;
  spec.prompt = lb::sim::test::engine_prompt(512, 1);
  spec.output_tokens = 64;
  spec.speed_factor = speed_factor;
  lb::sim::test::submit_timed(clock, engine, std::move(spec), done);
  clock.run();
  return done.at(0);
}

}  // namespace

class SimRunJitterTest : public QObject {
  Q_OBJECT
 private slots:
  void theOptionIsCheckedAndListed() {
    auto parsed = parse_lane_spec("bf16?run_jitter=0.03&seed=4");
    QVERIFY(std::holds_alternative<SimConfig>(parsed));
    QCOMPARE(std::get<SimConfig>(parsed).run_jitter, 0.03);
    for (const char* bad : {"bf16?run_jitter=-0.1", "bf16?run_jitter=2", "bf16?run_jitter=x"}) {
      auto r = parse_lane_spec(bad);
      QVERIFY2(std::holds_alternative<std::string>(r), bad);
      QVERIFY2(std::get<std::string>(r).find("run_jitter") != std::string::npos, bad);
    }
    const auto names = sim_option_names();
    QVERIFY(std::find(names.begin(), names.end(), "run_jitter") != names.end());
  }

  void theTrialHeaderIsANonNegativeInteger() {
    QCOMPARE(parse_trial_header("3"), int64_t(3));
    QCOMPARE(parse_trial_header("0"), int64_t(0));
    QCOMPARE(parse_trial_header(""), int64_t(0));
    QCOMPARE(parse_trial_header("-2"), int64_t(0));
    QCOMPARE(parse_trial_header("2x"), int64_t(0));
  }

  void theFactorIsDeterministicPerSeedAndTrial() {
    QCOMPARE(run_jitter_factor(0.0, 1, 5), 1.0);
    const double a = run_jitter_factor(0.05, 1, 5);
    QCOMPARE(run_jitter_factor(0.05, 1, 5), a);
    QVERIFY(a != run_jitter_factor(0.05, 1, 6));
    QVERIFY(a != run_jitter_factor(0.05, 2, 5));
    QVERIFY(std::abs(std::log(a)) < 0.05 * 6);  // six standard deviations
  }

  void theEngineRunsThatMuchFaster() {
    const auto base = timed_request(1.0);
    const auto fast = timed_request(1.25);
    QVERIFY(base.ttft_s() > 0 && base.decode_tok_s() > 0);
    QVERIFY(std::abs(fast.decode_tok_s() / base.decode_tok_s() - 1.25) < 1e-9);
    // Prefill too (api latency, which holds no GPU time, is not scaled).
    QVERIFY(fast.ttft_s() < base.ttft_s());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimRunJitterTest)
#include "sim_run_jitter_test.moc"
