// Speculative decoding on simulator lanes: MTP=3 about doubles c1 decode over the plain FP8 lane
// and gains little at c5, events carry several tokens, and acceptance comes from the server's
// counters (measured requests only, not the warm-ups) with per-position figures.
#include <QtTest>

#include "test_main.h"

#include "sim_plan_run.h"

class TestSpeculativeExperiment : public QObject {
  Q_OBJECT
 private slots:
  void mtpDoublesC1DecodeButBarelyMovesC5() {
    const nlohmann::json plan = {{"name", "mtp"},
                                 {"lanes",
                                  {{{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.1"}},
                                   {{"id", "mtp"}, {"base_url", "sim:fp8-mtp3?time_scale=0.1"}}}},
                                 {"experiments",
                                  {{{"kind", "speculative"},
                                    {"concurrency", {1, 5}},
                                    {"requests", 5},
                                    {"warmups", 1},
                                    {"input_tokens", 3613},
                                    {"output_tokens", 45}}}}};
    const auto run = lb::test::run_sim_plan(plan, "lb-exp-spec");
    QCOMPARE(run.result.exit_code, 0);
    const auto lanes = run.experiment("speculative")["lanes"];
    QCOMPARE(lanes["fp8"]["drafts"], false);
    QCOMPARE(lanes["mtp"]["drafts"], true);
    const auto c1 = lanes["mtp"]["speculative"]["c1"];
    const auto c5 = lanes["mtp"]["speculative"]["c5"];
    const double speedup = c1["vs_baseline"]["decode_speedup"];
    const double gain = c5["vs_baseline"]["output_tok_s_gain"];
    qInfo("c1 decode fp8 %.1f mtp %.1f tok/s (x%.2f); c5 aggregate gain x%.2f",
          double(lanes["fp8"]["speculative"]["c1"]["decode_tok_s"]["median"]),
          double(c1["decode_tok_s"]["median"]), speedup, gain);
    QVERIFY2(speedup > 1.6 && speedup < 2.4, "about 2x c1 decode");
    QVERIFY2(gain > 0.85 && gain < 1.35, "a small c5 gain, not another doubling");
    QCOMPARE(c1["acceptance"]["provenance"], "server");
    const double rate = c1["acceptance"]["acceptance_rate"];
    const double length = c1["acceptance"]["acceptance_length"];
    qInfo("acceptance rate %.3f length %.2f", rate, length);
    QVERIFY(rate > 0.55 && rate < 0.75);  // (0.9 + 0.675 + 0.405) / 3 = 0.66
    // The counters cover the measured requests only: the warm-up's drafts are not in them.
    for (const auto& level : {c1, c5})
      QCOMPARE(level["acceptance"]["drafts"], level["usage_acceptance"]["drafts"]);
    QVERIFY(length > 2.7 && length < 3.2);
    const auto pos = c1["acceptance"]["per_position"];
    QCOMPARE(pos.size(), size_t(3));
    QVERIFY(double(pos[0]) > double(pos[1]) && double(pos[1]) > double(pos[2]));
    QVERIFY(double(c1["tokens_per_event"]["mean"]) > 2.0);
    QVERIFY(lanes["fp8"]["speculative"]["c1"]["acceptance"].is_null());
    QVERIFY(double(c1["itl_ms"]["median"]) > 0);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestSpeculativeExperiment)
#include "run_speculative_test.moc"
