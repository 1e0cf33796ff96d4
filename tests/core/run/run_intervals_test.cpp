// Intervals and lane comparisons in summary.json after a real run on simulator lanes: every
// phase's headline figures carry a bootstrap interval over its requests that contains the figure,
// and the experiment compares each lane with the first (the FP8 profile decodes 47.9 tok/s against
// BF16's 26.9, a difference no noise of a loopback run hides).
#include <QtTest>

#include "test_main.h"

#include "sim_plan_run.h"

namespace {

nlohmann::json intervals_plan() {
  const nlohmann::json load = {{"kind", "throughput"}, {"concurrency", {1}},
                               {"requests", 8},        {"warmups", 0},
                               {"input_tokens", 256},  {"output_tokens", 16}};
  nlohmann::json solo = load;
  solo["name"] = "solo";
  solo["lanes"] = {"fp8"};
  solo["requests"] = 3;
  return {{"name", "intervals"},
          {"lanes",
           {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.1"}},
            {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.1"}}}},
          {"experiments", {load, solo}}};
}

}  // namespace

class TestRunIntervals : public QObject {
  Q_OBJECT
  lb::test::SimRun run_;

 private slots:
  void initTestCase() {
    run_ = lb::test::run_sim_plan(intervals_plan(), "lb-run-intervals");
    QCOMPARE(run_.result.exit_code, 0);
  }

  void everyPhaseHasIntervalsAroundItsFigures() {
    const auto lanes = run_.experiment("throughput")["lanes"];
    for (const char* lane : {"bf16", "fp8"}) {
      const auto& c1 = lanes[lane]["phases"]["c1"];
      QCOMPARE(c1["completed"], 8);
      // 8 requests are too few for a p99's interval (it needs 100).
      QVERIFY(!c1["intervals"].contains("p99_ttft_ms"));
      QVERIFY(!c1["intervals"].contains("p99_e2el_ms"));
      for (const char* key :
           {"median_ttft_ms", "median_tpot_ms", "median_e2el_ms", "median_decode_tok_s"}) {
        const auto& i = c1["intervals"][key];
        QVERIFY2(i.is_object(), key);
        QCOMPARE(i["method"], "bca");
        QCOMPARE(i["resamples"], 2000);
        QCOMPARE(i["level"], 0.95);
        QCOMPARE(i["basis"], "requests");
        QCOMPARE(i["n"], 8);
        const double figure = c1[key];  // the figure itself is where it always was
        QVERIFY2(double(i["lo"]) <= figure && figure <= double(i["hi"]), key);
      }
    }
  }

  void lanesAreComparedWithTheFirst() {
    const auto e = run_.experiment("throughput");
    const auto& comparisons = e["comparisons"];
    QCOMPARE(comparisons.size(), size_t(6));  // one phase, six figures
    const auto& phases = e["lanes"];
    bool found = false;
    for (const auto& c : comparisons) {
      QCOMPARE(c["baseline"], "bf16");
      QCOMPARE(c["candidate"], "fp8");
      QCOMPARE(c["phase"], "c1");
      if (std::string(c["figure"]).rfind("p99_", 0) == 0) {
        QVERIFY(c["lo"].is_null());
        QCOMPARE(c["verdict"], "n/a");
        continue;
      }
      QVERIFY(double(c["lo"]) <= double(c["ratio"]) && double(c["ratio"]) <= double(c["hi"]));
      if (c["figure"] != "median_decode_tok_s") continue;
      found = true;
      const double fp8 = phases["fp8"]["phases"]["c1"]["median_decode_tok_s"];
      const double bf16 = phases["bf16"]["phases"]["c1"]["median_decode_tok_s"];
      QVERIFY(std::abs(double(c["ratio"]) - fp8 / bf16) < 1e-9 * fp8 / bf16);
      const std::string said = c["statement"];
      qInfo("%s", said.c_str());
      QVERIFY(double(c["ratio"]) > 1.4);
      QCOMPARE(c["verdict"], "faster");
      QVERIFY2(said.rfind("fp8/bf16 c1 decode p50 ", 0) == 0, said.c_str());
      QVERIFY2(said.find("faster (95 %)") != std::string::npos, said.c_str());
    }
    QVERIFY(found);
  }

  void oneLaneHasNoComparisons() {
    const auto solo = run_.experiment("solo");
    QCOMPARE(solo["lanes"]["fp8"]["phases"]["c1"]["intervals"]["median_ttft_ms"]["n"], 3);
    QVERIFY(!solo.contains("comparisons"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestRunIntervals)
#include "run_intervals_test.moc"
