// batch_variance: the lane option and its checks, a flip probability that is 0 alone and grows
// with the batch, draws fixed by (prompt, seed) so a bigger batch flips a superset of prompts,
// and answers whose near-tie resolves the other way exactly when the draw says so.
#include <QtTest>

#include "test_main.h"

#include "sim/answer_book.h"
#include "sim/sim_config.h"

using namespace lb::sim;

namespace {

// Forty prompts, each with a reference answer and a near-tie wording variant.
AnswerBook tie_book() {
  std::string prompts, answers;
  for (int i = 0; i < 40; ++i) {
    const std::string id = "p" + std::to_string(i);
    prompts += "{\"id\":\"" + id + "\",\"prompt\":\"Question " + std::to_string(i) + "?\"}\n";
    answers += "{\"id\":\"" + id + "\",\"answer\":\"The answer is " + std::to_string(i) +
               ".\",\"drift\":\"The result is " + std::to_string(i) + ".\"}\n";
  }
  return AnswerBook::from_jsonl(prompts, answers);
}

GenRequest question(int i) {
  GenRequest r;
  r.messages.push_back({"user", "Question " + std::to_string(i) + "?", false});
  return r;
}

}  // namespace

class SimBatchVarianceTest : public QObject {
  Q_OBJECT
 private slots:
  void theOptionIsCheckedAndListed() {
    auto parsed = parse_lane_spec("bf16?batch_variance=0.4&seed=4");
    QVERIFY(std::holds_alternative<SimConfig>(parsed));
    QCOMPARE(std::get<SimConfig>(parsed).batch_variance, 0.4);
    QCOMPARE(std::get<SimConfig>(parse_lane_spec("bf16")).batch_variance, 0.0);
    for (const char* bad :
         {"bf16?batch_variance=-0.1", "bf16?batch_variance=1.5", "bf16?batch_variance=x"}) {
      auto r = parse_lane_spec(bad);
      QVERIFY2(std::holds_alternative<std::string>(r), bad);
      QVERIFY2(std::get<std::string>(r).find("batch_variance") != std::string::npos, bad);
    }
    const auto names = sim_option_names();
    QVERIFY(std::find(names.begin(), names.end(), "batch_variance") != names.end());
  }

  void theProbabilityGrowsWithTheBatch() {
    QCOMPARE(batch_flip_probability(1.0, 1), 0.0);
    QCOMPARE(batch_flip_probability(0.0, 64), 0.0);
    QCOMPARE(batch_flip_probability(0.5, 2), 0.25);
    double last = 0;
    for (int b : {2, 4, 8, 32, 256}) {
      const double p = batch_flip_probability(0.8, b);
      QVERIFY(p > last);
      QVERIFY(p < 0.8);
      last = p;
    }
  }

  void aBiggerBatchFlipsASupersetDeterministically() {
    AnswerContext small, big;
    small.batch_flip = batch_flip_probability(1.0, 2);
    big.batch_flip = batch_flip_probability(1.0, 32);
    int flips_small = 0, flips_big = 0;
    for (int i = 0; i < 200; ++i) {
      const std::string id = "prompt-" + std::to_string(i);
      const bool s = AnswerBook::batch_flips(id, small), b = AnswerBook::batch_flips(id, big);
      QCOMPARE(AnswerBook::batch_flips(id, small), s);
      if (s) QVERIFY(b);
      flips_small += s ? 1 : 0;
      flips_big += b ? 1 : 0;
    }
    // About 50 % and 97 % of 200.
    QVERIFY2(flips_small > 70 && flips_small < 130, qPrintable(QString::number(flips_small)));
    QVERIFY2(flips_big > 180, qPrintable(QString::number(flips_big)));
    AnswerContext reseeded = small;
    reseeded.seed = 9;
    int differ = 0;
    for (int i = 0; i < 200; ++i) {
      const std::string id = "prompt-" + std::to_string(i);
      differ += AnswerBook::batch_flips(id, small) != AnswerBook::batch_flips(id, reseeded);
    }
    QVERIFY(differ > 0);  // the draw depends on the seed
  }

  void answersSwapTheirNearTieExactlyWhenTheDrawSays() {
    const AnswerBook book = tie_book();
    for (const char* dtype : {"bf16", "fp8"}) {
      AnswerContext alone, batched;
      alone.weights_dtype = batched.weights_dtype = dtype;
      batched.batch_flip = batch_flip_probability(1.0, 16);
      int swapped = 0;
      for (int i = 0; i < 40; ++i) {
        const auto a = book.answer(question(i), alone), b = book.answer(question(i), batched);
        const bool flips = AnswerBook::batch_flips("p" + std::to_string(i), batched);
        QCOMPARE(a.content != b.content, flips);
        if (flips) {
          // The near-tie resolved the other way: the other of the two wordings.
          const std::string ref = "The answer is " + std::to_string(i) + ".";
          const std::string tie = "The result is " + std::to_string(i) + ".";
          QCOMPARE(b.content, a.content == ref ? tie : ref);
        }
        swapped += flips ? 1 : 0;
      }
      QVERIFY(swapped > 20);
    }
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimBatchVarianceTest)
#include "sim_batch_variance_test.moc"
